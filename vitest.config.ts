import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const IGNORED = ['node_modules/**', 'dist/**'];
/**
 * End-to-end and contract files import the whole app (through test/e2e/harness.ts), which took a
 * fresh worker several seconds of CPU per file, more than many of their tests. They run one after
 * another in reused workers instead (isolate: false); each starts and closes its own servers and
 * state, and none mocks modules or leaves a global changed.
 */
const SHARED_WORKERS = ['test/e2e/**/*.test.ts', 'test/contract/**/*.test.ts'];
/**
 * They time the event loop of their own worker (stalls, /healthz answers), so nothing left behind by an earlier file
 * may run there.
 */
const OWN_WORKER = [
  'test/e2e/event-loop-budget.test.ts',
  'test/e2e/fuzz.test.ts',
  'test/e2e/hardening-budgets.test.ts',
  'test/e2e/hardening-content.test.ts',
];

/**
 * Test files that replace modules, globals, the environment or timers, found by reading them: each gets a fresh worker.
 */
function filesThatMock(): string[] {
  const replaces = /\bvi\.(mock|doMock|stubGlobal|stubEnv|useFakeTimers|spyOn)\(/;
  const skipped = new Set(['node_modules', 'dist', '.git']);
  // Paths relative to this file's folder, as `include` reads them, wherever vitest was started.
  const root = dirname(fileURLToPath(import.meta.url));
  return readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !skipped.has(entry.name))
    .flatMap((dir) =>
      readdirSync(join(root, dir.name), { recursive: true }).map((name) => join(dir.name, String(name))),
    )
    .filter((path) => path.endsWith('.test.ts') && replaces.test(readFileSync(join(root, path), 'utf8')));
}
/** The other unit files share reused workers as well: a fresh worker per file cost ~0.3 s each, over 200 files. */
const MOCKING = filesThatMock();

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // A machine without redis-server or Chromium fails the run instead of skipping their tests quietly.
    globalSetup: ['test/global-requirements.ts'],
    pool: 'forks',
    // Most long tests wait (deadlines, lock expiry, a second instance), so two files at once
    // even on 2 cores — vitest's default there is one. The load this adds is load the tests must bear.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      { extends: true, test: { name: 'isolated', include: MOCKING, exclude: [...IGNORED, ...SHARED_WORKERS] } },
      {
        extends: true,
        test: {
          name: 'units',
          include: ['**/*.test.ts'],
          exclude: [...IGNORED, ...SHARED_WORKERS, ...MOCKING],
          isolate: false,
        },
      },
      { extends: true, test: { name: 'own-worker', include: OWN_WORKER } },
      {
        extends: true,
        test: { name: 'shared-workers', include: SHARED_WORKERS, exclude: [...IGNORED, ...OWN_WORKER], isolate: false },
      },
    ],
  },
});
