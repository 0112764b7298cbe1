/**
 * The stdio host's tool list from the previous start, so `tools/list` is
 * answered before the app has loaded (importing it takes seconds): the list
 * the capability declarations gave last time, kept under the user's cache
 * directory and keyed by everything that shapes it — the package version and
 * build, the working directory, the QUARRY_* environment and the bytes of the
 * configuration file. Once the app has loaded, the live list is compared with
 * it: a different one replaces the snapshot and the client is told the list
 * changed. No snapshot (the first start, or a new key): the request waits for
 * the app, as before. Every failure here is silent: it only costs speed.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageVersion } from '../../core/paths.js';

export class ToolListSnapshot {
  private constructor(
    private readonly path: string,
    /** The list read at start, if there was one for this key. */
    readonly tools: unknown[] | undefined,
  ) {}

  /** The snapshot for this process's environment (reads at most one small file). */
  static forThisProcess(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): ToolListSnapshot | undefined {
    try {
      const dir = join(env.XDG_CACHE_HOME || join(env.HOME || homedir(), '.cache'), 'quarry');
      const path = join(dir, `mcp-tools-${snapshotKey(env, cwd)}.json`);
      return new ToolListSnapshot(path, readTools(path));
    } catch {
      return undefined;
    }
  }

  /**
   * Keeps the live list; true when it differs from the one read at start (a client that got that one should be told).
   */
  update(tools: unknown[]): boolean {
    const live = JSON.stringify(tools);
    if (this.tools !== undefined && JSON.stringify(this.tools) === live) return false;
    try {
      mkdirSync(join(this.path, '..'), { recursive: true });
      // Written aside and renamed, so a concurrent start never reads half a file.
      const partial = `${this.path}.${process.pid}.tmp`;
      writeFileSync(partial, live);
      renameSync(partial, this.path);
    } catch {
      // A read-only cache directory only costs the next start its speed.
    }
    return this.tools !== undefined;
  }
}

function readTools(path: string): unknown[] | undefined {
  try {
    const tools = JSON.parse(readFileSync(path, 'utf8')) as unknown;
    return Array.isArray(tools) ? tools : undefined;
  } catch {
    return undefined;
  }
}

/** What the tool list depends on, hashed: a change to any of it is a new key (and a fresh list). */
function snapshotKey(env: NodeJS.ProcessEnv, cwd: string): string {
  const quarryEnv = Object.entries(env)
    .filter(([name]) => name.startsWith('QUARRY_'))
    .sort(([a], [b]) => a.localeCompare(b));
  const configPath = env.QUARRY_CONFIG ? resolve(cwd, env.QUARRY_CONFIG) : join(cwd, 'quarry.config.json');
  let config = '';
  try {
    config = readFileSync(configPath, 'utf8');
  } catch {
    // No configuration file: the defaults.
  }
  // This build of the package: the time this compiled file was written.
  const build = statSync(fileURLToPath(import.meta.url)).mtimeMs;
  return createHash('sha256')
    .update(JSON.stringify([packageVersion(), build, cwd, quarryEnv, config]))
    .digest('hex')
    .slice(0, 32);
}
