/**
 * vitest globalSetup: the suite needs redis-server and Chromium (`npm test` installs them through
 * scripts/setup.mjs). Tests that use them are written `describe.runIf(hasRedisServer)`, so a machine
 * without them would otherwise pass with those tests quietly skipped. Here a missing one fails the
 * run, unless the user opts out by name with QUARRY_TEST_WITHOUT=redis,chromium — then the skip is
 * announced, not silent.
 */
import { existsSync } from 'node:fs';

/** The paths the tests themselves look for. */
const REQUIREMENTS = [
  { name: 'redis', path: '/usr/bin/redis-server', install: 'apt-get install redis-server' },
  { name: 'chromium', path: '/usr/bin/chromium', install: 'apt-get install chromium' },
] as const;

export function missingRequirements(
  exists: (path: string) => boolean = existsSync,
  optedOut: string = process.env.QUARRY_TEST_WITHOUT ?? '',
): { missing: string[]; skipped: string[] } {
  const without = new Set(
    optedOut
      .split(',')
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean),
  );
  const missing: string[] = [];
  const skipped: string[] = [];
  for (const req of REQUIREMENTS) {
    if (exists(req.path)) continue;
    if (without.has(req.name))
      skipped.push(`${req.name} (${req.path} not found; its tests are skipped because QUARRY_TEST_WITHOUT names it)`);
    else
      missing.push(
        `${req.name}: ${req.path} not found — run \`${req.install}\` (npm test's setup tries this), or set QUARRY_TEST_WITHOUT=${req.name} to skip its tests knowingly`,
      );
  }
  return { missing, skipped };
}

export default function setup(): void {
  const { missing, skipped } = missingRequirements();
  for (const line of skipped) console.warn(`[quarry tests] skipping: ${line}`);
  if (missing.length > 0) throw new Error(`The test suite needs:\n  ${missing.join('\n  ')}`);
}
