/**
 * Runs the longest test files first. With two workers, a one-minute file
 * picked up near the end of the run leaves the other worker idle for most of
 * that minute. Vitest orders by last run's durations when it has them, but a
 * fresh clone has none and vitest then goes by file size, which says little
 * about time (browser-deadline.test.ts is short and waits on deadlines for
 * over a minute). Files named here (the longest of a fresh-clone run, longest
 * first) go first; the rest keep vitest's order.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Seconds measured in the fresh-clone run of 2026-11-27 (2 cores), longest first. */
const LONGEST_FILES = [
  'services/browser/browser-deadline.test.ts', // 77
  'test/e2e/event-loop-budget.test.ts', // 64
  'test/e2e/failover.test.ts', // 57
  'test/e2e/several-instances.test.ts', // 56
  'test/e2e/monitor-durability.test.ts', // 38
  'test/e2e/cli.test.ts', // 38
  'test/e2e/mcp-instances.test.ts', // 31
  'test/e2e/mcp-inspector.test.ts', // 26
  'test/e2e/monitor.test.ts', // 25
  'test/e2e/fuzz.test.ts', // 24
  'test/e2e/hardening-budgets.test.ts', // 23
  'test/e2e/rag-crash.test.ts', // 23
  'test/contract/search.contract.test.ts', // 22
  'test/e2e/enhanced-scrape.test.ts', // 21
  'services/jobs/bullmq/bullmq-backend.test.ts', // 18
  'services/browser/render-modes.test.ts', // 17
];

export default class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification): number => {
      const index = LONGEST_FILES.findIndex((path) => spec.moduleId.endsWith(`/${path}`));
      return index === -1 ? LONGEST_FILES.length : index;
    };
    // Array.prototype.sort is stable: files not named keep vitest's order.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}
