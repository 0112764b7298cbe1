/**
 * The fuzz benchmark's worker (fuzz-pool.ts): one task is one source page and
 * the seeds of its mutations, run by fuzzSource in this thread.
 */
import { fuzzSource, type FuzzPage, type SourceResult } from './fuzz-run.js';

export interface FuzzTask {
  page: FuzzPage;
  seeds: number[];
}

export default function run(task: FuzzTask): SourceResult {
  return fuzzSource(task.page, task.seeds);
}
