/**
 * Locations inside the installed package. Code runs both from source (tests)
 * and from dist/ (the built package), so paths are found, not assumed.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findPackageRoot(start: string): string {
  let dir = start;
  for (;;) {
    const candidate = join(dir, 'package.json');
    if (existsSync(candidate)) {
      const pkg = JSON.parse(readFileSync(candidate, 'utf8')) as { name?: string };
      if (pkg.name === 'quarry') return dir;
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`cannot find the quarry package root above ${start}`);
    dir = parent;
  }
}

/** The package root (where package.json and plugin.schema.json are). */
export const PACKAGE_ROOT = findPackageRoot(dirname(fileURLToPath(import.meta.url)));

/** Root of the running code: dist/ when built, the package root when run from source. */
export const CODE_ROOT = dirname(dirname(fileURLToPath(import.meta.url)));

/** True when running the compiled JavaScript. */
export const RUNNING_BUILT = CODE_ROOT !== PACKAGE_ROOT;

/** Built worker files always come from dist/, also when tests run the source. */
export function builtWorkerPath(name: string): string {
  return join(PACKAGE_ROOT, 'dist', 'workers', `${name}.worker.js`);
}

export function packageVersion(): string {
  return (JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
}
