/**
 * `npm ci` refuses a lock file that lacks an optional dependency of a locked package, even one for
 * another platform (it did, on every fresh machine, for LanceDB's macOS, arm64 and Windows builds).
 * This reads the lock as npm ci does: every dependency a locked package declares, optional ones
 * included, must resolve to a locked entry, and package.json's own must match the lock's root.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../core/paths.js';

interface LockedPackage {
  version?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

const lock = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, LockedPackage>;
};
const manifest = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as LockedPackage;

/** Node's lookup: the nearest node_modules folder above the dependent that holds the name. */
function resolves(from: string, name: string): boolean {
  let base = from;
  for (;;) {
    if (lock.packages[`${base ? `${base}/` : ''}node_modules/${name}`]) return true;
    const at = base.lastIndexOf('/node_modules/');
    if (base === '') return false;
    base = at < 0 ? '' : base.slice(0, at);
  }
}

describe('package-lock.json', () => {
  it('holds every optional dependency of every locked package, for every platform', () => {
    const missing: string[] = [];
    for (const [path, entry] of Object.entries(lock.packages)) {
      for (const name of Object.keys(entry.optionalDependencies ?? {})) {
        if (!resolves(path, name)) missing.push(`${path || '(root)'} → ${name}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('has the root dependencies package.json declares', () => {
    const root = lock.packages[''];
    expect(root?.dependencies).toEqual(manifest.dependencies);
    expect(root?.devDependencies).toEqual(manifest.devDependencies);
  });
});
