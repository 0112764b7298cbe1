/**
 * Extraction worker for the tinypool pool (services/extract/extraction-pool.ts).
 * Tinypool calls the default export with each task; it runs as built
 * JavaScript (dist/workers/extract.worker.js). HTML is extracted
 * synchronously; a PDF (options.contentType "application/pdf", the bytes in
 * base64 in `html`) is read with pdf.js, which is asynchronous.
 */
import { extract } from '../services/extract/extract.js';
import { extractPdf } from '../services/extract/pdf.js';
import type { ExtractionResult, ExtractOptions } from '../services/extract/types.js';

export interface ExtractWorkerTask {
  /** The HTML, or the PDF's bytes in base64 when options.contentType is "application/pdf". */
  html: string;
  url: string;
  options?: ExtractOptions;
}

/** HTML tasks answer synchronously (callers in-process rely on it); PDF tasks answer with a promise. */
export default function run(task: ExtractWorkerTask & { options?: ExtractOptions & { contentType?: 'text/html' } }): ExtractionResult;
export default function run(task: ExtractWorkerTask): ExtractionResult | Promise<ExtractionResult>;
export default function run(task: ExtractWorkerTask): ExtractionResult | Promise<ExtractionResult> {
  if (task.options?.contentType === 'application/pdf') {
    return extractPdf(Buffer.from(task.html, 'base64'), task.url, task.options);
  }
  return extract(task.html, task.url, task.options);
}
