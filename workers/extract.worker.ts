/**
 * Extraction worker for the tinypool pool (core/pools/extraction-pool.ts).
 * Tinypool calls the default export with each task; it runs as built
 * JavaScript (dist/workers/extract.worker.js).
 */
import { extract } from '../core/extract/extract.js';
import type { ExtractionResult, ExtractOptions } from '../core/extract/types.js';

export default function run(task: { html: string; url: string; options?: ExtractOptions }): ExtractionResult {
  return extract(task.html, task.url, task.options);
}
