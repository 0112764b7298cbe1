/**
 * npm run bench:fuzz — the extraction fuzz at scale (issue 44): 10,000
 * mutated pages (--pages N) made from the shared extraction sets (Zyte's 181
 * articles and the WCXB dev split), each checked as bench/fuzz/fuzz-check.ts
 * defines: failed (threw, extraction_error, or called unreadable while its
 * main text is still there) or lost (kept less than half of the main text the
 * mutation left). Prints the counts overall and per mutation kind, the first
 * problems with their seeds (replay: mutatePage(html, seed)), and the speed
 * on mutated pages beside the unmutated pages' speed in the same run.
 *
 * Seed: --seed N (default 44). Datasets: ../shared/fixtures/extraction (or
 * EXTRACTION_DATASET_DIR); exits 0 with a message when absent.
 */
import { datasetsPresent, DATASET_DIR, wcxbPages, zytePages } from './extract/datasets.js';
import { fixed, ratio, table } from './extract/report.js';
import { availableParallelism } from 'node:os';
import { runFuzzInPool } from './fuzz/fuzz-pool.js';
import type { FuzzPage } from './fuzz/fuzz-run.js';
import { MUTATION_KINDS } from './fuzz/page-mutator.js';

function flag(name: string, fallback: number): number {
  const index = process.argv.indexOf(name);
  return index >= 0 ? Number(process.argv[index + 1]) || fallback : fallback;
}

const PAGES = flag('--pages', 10_000);
const SEED = flag('--seed', 44);
const THREADS = flag('--threads', availableParallelism());
const SHOW = flag('--show', 30);

if (!datasetsPresent()) {
  console.log(`extraction datasets not found at ${DATASET_DIR}; nothing to fuzz`);
  process.exit(0);
}

const sources: FuzzPage[] = [...zytePages(), ...wcxbPages()].map((page) => ({
  id: page.id,
  url: page.url,
  html: page.html(),
}));
console.log(
  `# Extraction fuzz: ${PAGES} mutated pages from ${sources.length} real pages, seed ${SEED}, ${THREADS} threads\n`,
);
const started = performance.now();
const report = await runFuzzInPool(sources, PAGES, SEED, THREADS, (done) => console.error(`${done} pages`));
const wallSeconds = (performance.now() - started) / 1000;

console.log(
  table(
    ['kind', 'pages', 'failed', 'lost'],
    MUTATION_KINDS.map((kind) => {
      const tally = report.byKind.get(kind) ?? { pages: 0, failed: 0, lost: 0 };
      return [kind, String(tally.pages), String(tally.failed), String(tally.lost)];
    }),
  ),
);
console.log(
  `\npages: ${report.pages}, failed: ${report.failed}, lost: ${report.lost} (a page with two mutations counts under both kinds)`,
);
const crashes = report.problems.filter(
  (p) => p.outcome.detail.startsWith('threw') || p.outcome.detail === 'extraction_error',
);
console.log(`crashes (threw or extraction_error): ${crashes.length}`);

const mutatedRate = report.pages / (report.mutatedMs / 1000);
const baselineRate = report.baselinePages / (report.baselineMs / 1000);
console.log(
  `\nspeed: ${fixed(mutatedRate, 1)} mutated pages/s, ${fixed(baselineRate, 1)} unmutated pages/s (baseline, same run): ${ratio(mutatedRate, baselineRate)}`,
);
console.log(
  `(per thread; ${THREADS} threads) wall time: ${fixed(wallSeconds, 1)} s, ` +
    `${fixed((report.pages + report.baselinePages) / wallSeconds, 1)} pages/s over the whole run`,
);

if (report.problems.length > 0) {
  console.log('\n## First problems (page, seed, kinds: verdict)\n');
  for (const p of report.problems.slice(0, SHOW))
    console.log(
      `- ${p.page} seed ${p.seed} [${p.kinds.join('+')}] ${p.notes.join('; ')}: ${p.outcome.verdict} — ${p.outcome.detail.slice(0, 200)}`,
    );
}
