/**
 * A LanceDB directory's schema version in a small JSON file beside its
 * tables (LanceDB reads only the `*.lance` folders). A directory with
 * content but no such file was written before markers existed.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseVersion, type FoundVersion, type VersionMarker } from './marker.js';

export const DIRECTORY_MARKER_FILE = 'quarry-schema.json';

export function readDirectoryVersion(dir: string): FoundVersion {
  const file = join(dir, DIRECTORY_MARKER_FILE);
  if (existsSync(file)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      throw new Error(`the schema marker ${file} is not JSON`);
    }
    return parseVersion(String((parsed as { version?: unknown } | null)?.version ?? ''), file);
  }
  if (!existsSync(dir) || readdirSync(dir).length === 0) return 'fresh';
  return 'unmarked';
}

export function directoryMarker(dir: string, store: string): VersionMarker {
  const file = join(dir, DIRECTORY_MARKER_FILE);
  return {
    location: dir,
    read: async () => readDirectoryVersion(dir),
    target: async () => ({ kind: 'directory', dir }),
    async write(version) {
      mkdirSync(dir, { recursive: true });
      // Written whole, then renamed: a crash leaves the old marker or the new one.
      const temporary = `${file}.${process.pid}.tmp`;
      writeFileSync(temporary, `${JSON.stringify({ store, version })}\n`);
      renameSync(temporary, file);
    },
    async close() {},
  };
}
