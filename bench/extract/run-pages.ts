/**
 * Runs every extractor on every page of a dataset, timing only the
 * extraction (reading and gunzipping the file is not counted), and keeps the
 * texts for scoring.
 */
import type { BenchPage } from './datasets.js';
import type { Extractor } from './extractors.js';

export interface Timing {
  pages: number;
  ms: number;
}

export interface PageRun<P extends BenchPage> {
  page: P;
  /** Extracted text per extractor name. */
  texts: Record<string, string>;
}

export function runPages<P extends BenchPage>(
  pages: P[],
  extractors: Array<{ name: string; run: Extractor }>,
  timings: Map<string, Timing>,
): Array<PageRun<P>> {
  const runs: Array<PageRun<P>> = [];
  for (const page of pages) {
    const html = page.html();
    const texts: Record<string, string> = {};
    for (const { name, run } of extractors) {
      const started = performance.now();
      texts[name] = run(html, page.url);
      const timing = timings.get(name) ?? { pages: 0, ms: 0 };
      timing.ms += performance.now() - started;
      timing.pages += 1;
      timings.set(name, timing);
    }
    runs.push({ page, texts });
  }
  return runs;
}
