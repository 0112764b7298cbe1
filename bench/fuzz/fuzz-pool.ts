/**
 * The extraction fuzz over a worker pool (one thread per core, the project's
 * WorkerPool over tinypool): each source page is one task (fuzz-worker.ts),
 * so its unmutated extraction is done once and in the thread that checks its
 * mutations. Baseline and mutated times are both measured inside the threads,
 * so their ratio compares like with like. A source that does not finish by
 * its deadline is run again one seed at a time, so the report names the seed
 * that hung (as failed, "timed out").
 */
import { fileURLToPath } from 'node:url';
import { WorkerPool } from '../../core/pools/worker-pool.js';
import type { FuzzTask } from './fuzz-worker.js';
import {
  addSource,
  emptyReport,
  seedsBySource,
  type FuzzPage,
  type FuzzReport,
  type MutationResult,
  type SourceResult,
} from './fuzz-run.js';

/** Per mutated page; generous, since one pathological page (a quadratic walk) is what it is there to find. */
const MS_PER_PAGE = 60_000;

function timedOut(seed: number, error: unknown): MutationResult {
  const detail = `timed out or crashed its thread: ${(error as Error).message}`;
  return { seed, kinds: [], notes: [], outcome: { verdict: 'failed', detail, remaining: 0, kept: 0, extractMs: 0 } };
}

export async function runFuzzInPool(
  pages: FuzzPage[],
  count: number,
  seed: number,
  threads: number,
  onProgress?: (done: number) => void,
): Promise<FuzzReport> {
  const filename = fileURLToPath(new URL('./fuzz-worker.js', import.meta.url));
  const pool = new WorkerPool<FuzzTask, SourceResult>({ filename, name: 'fuzz', threads, maxQueue: Infinity });
  const report = emptyReport();
  let done = 0;
  const runSource = async (page: FuzzPage, seeds: number[]): Promise<void> => {
    let source: SourceResult;
    try {
      source = await pool.run({ page, seeds }, undefined, { timeoutMs: MS_PER_PAGE * (seeds.length + 1) });
    } catch {
      // Again one seed at a time, to name the one that hung; the baseline counts once.
      source = { page: page.id, baselineMs: 0, mutations: [] };
      for (const one of seeds) {
        try {
          const single = await pool.run({ page, seeds: [one] }, undefined, { timeoutMs: MS_PER_PAGE * 2 });
          source.baselineMs = single.baselineMs;
          source.mutations.push(...single.mutations);
        } catch (error) {
          source.mutations.push(timedOut(one, error));
        }
      }
    }
    addSource(report, source);
    const before = done;
    done += seeds.length;
    if (Math.floor(done / 500) > Math.floor(before / 500)) onProgress?.(done);
  };
  // As many tasks in flight as threads, so a task's deadline counts its own run, not its wait in the queue.
  const work = seedsBySource(pages.length, count, seed).map((seeds, index) => ({ page: pages[index]!, seeds }));
  let next = 0;
  const runner = async (): Promise<void> => {
    while (next < work.length) {
      const { page, seeds } = work[next++]!;
      await runSource(page, seeds);
    }
  };
  try {
    await Promise.all(Array.from({ length: threads }, runner));
  } finally {
    await pool.close();
  }
  report.problems.sort((a, b) => a.seed - b.seed);
  return report;
}
