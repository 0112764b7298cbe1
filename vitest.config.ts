import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['**/*.test.ts'],
    exclude: ['node_modules/**', 'dist/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // A machine without redis-server or Chromium fails the run instead of skipping their tests quietly.
    globalSetup: ['test/global-requirements.ts'],
    pool: 'forks',
    // Most long tests wait (deadlines, lock expiry, a second instance), so two files at once
    // even on 2 cores — vitest's default there is one. The load this adds is load the tests must bear.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
