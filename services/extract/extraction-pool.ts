/**
 * The extraction interface as the rest of Quarry sees it: extract(html, url,
 * options) run in the worker pool, so parsing never blocks the event loop.
 */
import type { ExtractionResult, ExtractOptions } from './types.js';
import { builtWorkerPath } from '../../core/paths.js';
import { WorkerPool, type WorkerPoolStats } from '../../core/pools/worker-pool.js';

export interface ExtractTask {
  /** The HTML, or the PDF's bytes in base64 when options.contentType is "application/pdf". */
  html: string;
  url: string;
  options?: ExtractOptions;
}

export class ExtractionPool {
  private readonly pool: WorkerPool<ExtractTask, ExtractionResult>;

  constructor(options: { threads: number; maxQueue: number }) {
    this.pool = new WorkerPool({ filename: builtWorkerPath('extract'), name: 'extract', ...options });
  }

  /** HTML by default; with options.contentType "application/pdf", `html` holds the PDF's bytes in base64. */
  extract(html: string, url: string, options: ExtractOptions = {}, signal?: AbortSignal): Promise<ExtractionResult> {
    return this.pool.run({ html, url, options }, signal);
  }

  /** A PDF document's text; the bytes travel to the worker as base64 (a string crosses the thread boundary in one copy). */
  extractPdf(bytes: Uint8Array, url: string, options: ExtractOptions = {}, signal?: AbortSignal): Promise<ExtractionResult> {
    return this.extract(Buffer.from(bytes).toString('base64'), url, { ...options, contentType: 'application/pdf' }, signal);
  }

  stats(): WorkerPoolStats {
    return this.pool.stats();
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
