import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

const IGNORED = ['node_modules/**', 'dist/**'];
/**
 * End-to-end and contract files import the whole app (through test/e2e/harness.ts), which took a
 * fresh worker several seconds of CPU per file, more than many of their tests. They run one after
 * another in reused workers instead (isolate: false); each starts and closes its own servers and
 * state, and none mocks modules or leaves a global changed.
 */
const SHARED_WORKERS = ['test/e2e/**/*.test.ts', 'test/contract/**/*.test.ts'];
/** They time the event loop of their own worker (stalls, /healthz answers), so nothing left behind by an earlier file may run there. */
const OWN_WORKER = ['test/e2e/event-loop-budget.test.ts', 'test/e2e/fuzz.test.ts', 'test/e2e/hardening-budgets.test.ts', 'test/e2e/hardening-content.test.ts'];

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
      { extends: true, test: { name: 'isolated', include: ['**/*.test.ts'], exclude: [...IGNORED, ...SHARED_WORKERS] } },
      { extends: true, test: { name: 'own-worker', include: OWN_WORKER } },
      { extends: true, test: { name: 'shared-workers', include: SHARED_WORKERS, exclude: [...IGNORED, ...OWN_WORKER], isolate: false } },
    ],
  },
});
