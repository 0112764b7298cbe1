/**
 * The extraction interface as the rest of Quarry sees it: extract(html, url,
 * options) run in the worker pool, so parsing never blocks the event loop.
 */
import type { ExtractionResult, ExtractOptions } from '../extract/types.js';
import { builtWorkerPath } from '../paths.js';
import { WorkerPool, type WorkerPoolStats } from './worker-pool.js';

export interface ExtractTask {
  html: string;
  url: string;
  options?: ExtractOptions;
}

export class ExtractionPool {
  private readonly pool: WorkerPool<ExtractTask, ExtractionResult>;

  constructor(options: { threads: number; maxQueue: number }) {
    this.pool = new WorkerPool({ filename: builtWorkerPath('extract'), name: 'extract', ...options });
  }

  extract(html: string, url: string, options: ExtractOptions = {}, signal?: AbortSignal): Promise<ExtractionResult> {
    return this.pool.run({ html, url, options }, signal);
  }

  stats(): WorkerPoolStats {
    return this.pool.stats();
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
