/**
 * npm run bench:extract — main-content extraction quality and speed of
 * Quarry's extract() against plain linkedom + Mozilla Readability, in one run:
 *
 * 1. Zyte article-extraction benchmark (181 articles): 4-gram shingle
 *    precision/recall/F1 as the benchmark defines them. The scorer is first
 *    checked against the published tools' outputs (zyte-baseline-outputs).
 * 2. WCXB dev split (1,497 pages of seven page types): word-level F1 per page,
 *    averaged, overall and per page type.
 * 3. Trafilatura's evaluation subset (189 pages): with/without snippets.
 * 4. Pages per second on one core (this process) for both, on all pages.
 *
 * Scoring rules: /work/shared/notes/extraction-metric.md. Datasets:
 * ../shared/fixtures/extraction (or EXTRACTION_DATASET_DIR); exits 0 with a
 * message when absent. Flags: --only zyte|wcxb|traf, --worst N (pages where
 * Quarry trails Readability most, for development).
 */
import {
  datasetsPresent,
  DATASET_DIR,
  snippetPages,
  wcxbPages,
  zyteBaseline,
  zyteBaselineFiles,
  zytePages,
} from './extract/datasets.js';
import { EXTRACTORS } from './extract/extractors.js';
import { fixed, ratio, table } from './extract/report.js';
import { runPages, type Timing } from './extract/run-pages.js';
import { shingleScore } from './extract/shingle-score.js';
import { snippetCounts, snippetScore } from './extract/snippet-score.js';
import { meanWordScore, wordScore, type WordScore } from './extract/word-f1.js';

/** F1 published by the benchmark (README table), for the scorer check. */
const PUBLISHED_ZYTE_F1: Record<string, number> = {
  'AutoExtract.json': 0.97,
  'Diffbot.json': 0.951,
  'trafilatura.json': 0.958,
  'readability_js.json': 0.947,
  'readability.json': 0.922,
  'html-text.json': 0.665,
};

function flag(name: string): string | null {
  const index = process.argv.indexOf(name);
  return index >= 0 ? (process.argv[index + 1] ?? null) : null;
}

const only = flag('--only');
const worst = Number(flag('--worst') ?? 0);
const names = EXTRACTORS.map((e) => e.name);
const timings = new Map<string, Timing>();

function scorerCheck(): void {
  const truth = zytePages();
  const rows = zyteBaselineFiles().map((file) => {
    const outputs = zyteBaseline(file);
    const score = shingleScore(truth.map((page) => ({ truth: page.truth, predicted: outputs.get(page.id) ?? '' })));
    const published = PUBLISHED_ZYTE_F1[file];
    const matches = published === undefined ? '' : Math.abs(score.f1 - published) <= 0.0015 ? 'yes' : 'NO';
    return [
      file.replace(/\.json$/, ''),
      fixed(score.precision),
      fixed(score.recall),
      fixed(score.f1),
      published === undefined ? '' : fixed(published),
      matches,
    ];
  });
  console.log('\n## Scorer check: published Zyte outputs re-scored\n');
  console.log(table(['tool', 'precision', 'recall', 'F1', 'published F1', 'match'], rows));
}

function printWorst(label: string, items: Array<{ id: string; delta: number; detail: string }>): void {
  if (worst <= 0) return;
  console.log(`\n${label}: pages where Quarry trails Readability most`);
  for (const item of items.sort((a, b) => a.delta - b.delta).slice(0, worst))
    console.log(`  ${item.id} ${fixed(item.delta)} ${item.detail}`);
}

function zyteSection(): void {
  scorerCheck();
  const runs = runPages(zytePages(), EXTRACTORS, timings);
  const scores = names.map((name) =>
    shingleScore(runs.map((run) => ({ truth: run.page.truth, predicted: run.texts[name] ?? '' }))),
  );
  const [q, r] = scores;
  console.log(`\n## Zyte article benchmark (${runs.length} pages, 4-gram shingle F1)\n`);
  console.log(
    table(
      ['extractor', 'precision', 'recall', 'F1', 'accuracy'],
      scores
        .map((s, i) => [names[i] ?? '', fixed(s.precision), fixed(s.recall), fixed(s.f1), fixed(s.accuracy)])
        .concat(
          q && r
            ? [
                [
                  'quarry / readability',
                  ratio(q.precision, r.precision),
                  ratio(q.recall, r.recall),
                  ratio(q.f1, r.f1),
                  ratio(q.accuracy, r.accuracy),
                ],
              ]
            : [],
        ),
    ),
  );
  printWorst(
    'Zyte',
    runs.map((run) => {
      const [a, b] = names.map(
        (name) => shingleScore([{ truth: run.page.truth, predicted: run.texts[name] ?? '' }]).f1,
      );
      return {
        id: run.page.id,
        delta: (a ?? 0) - (b ?? 0),
        detail: `quarry ${fixed(a ?? 0)} readability ${fixed(b ?? 0)} ${run.page.url}`,
      };
    }),
  );
}

function wcxbSection(): void {
  const runs = runPages(wcxbPages(), EXTRACTORS, timings);
  const perPage = runs.map((run) => ({
    run,
    scores: names.map((name) => wordScore(run.page.truth, run.texts[name] ?? '')),
  }));
  const types = [...new Set(runs.map((run) => run.page.pageType))].sort();
  const row = (label: string, items: typeof perPage): string[] => {
    const [q, r] = names.map((_, i) => meanWordScore(items.map((item) => item.scores[i] as WordScore)));
    return [
      label,
      String(items.length),
      fixed(q?.precision ?? 0),
      fixed(q?.recall ?? 0),
      fixed(q?.f1 ?? 0),
      fixed(r?.precision ?? 0),
      fixed(r?.recall ?? 0),
      fixed(r?.f1 ?? 0),
      ratio(q?.f1 ?? 0, r?.f1 ?? 0),
    ];
  };
  console.log(`\n## WCXB dev split (${runs.length} pages, word-level F1 averaged per page)\n`);
  console.log(
    table(
      ['page type', 'pages', 'quarry P', 'quarry R', 'quarry F1', 'readab. P', 'readab. R', 'readab. F1', 'F1 ratio'],
      [
        row('all', perPage),
        ...types.map((type) =>
          row(
            type,
            perPage.filter((item) => item.run.page.pageType === type),
          ),
        ),
      ],
    ),
  );
  printWorst(
    'WCXB',
    perPage.map(({ run, scores: [a, b] }) => ({
      id: run.page.id,
      delta: (a?.f1 ?? 0) - (b?.f1 ?? 0),
      detail: `${run.page.pageType} quarry P ${fixed(a?.precision ?? 0)} R ${fixed(a?.recall ?? 0)} readability P ${fixed(b?.precision ?? 0)} R ${fixed(b?.recall ?? 0)} ${run.page.url}`,
    })),
  );
}

function snippetSection(): void {
  const runs = runPages(snippetPages(), EXTRACTORS, timings);
  const scores = names.map((name) =>
    snippetScore(runs.map((run) => snippetCounts(run.texts[name] ?? '', run.page.with, run.page.without))),
  );
  const [q, r] = scores;
  console.log(`\n## Trafilatura evaluation subset (${runs.length} pages, with/without snippets)\n`);
  console.log(
    table(
      ['extractor', 'precision', 'recall', 'accuracy', 'F1'],
      scores
        .map((s, i) => [names[i] ?? '', fixed(s.precision), fixed(s.recall), fixed(s.accuracy), fixed(s.f1)])
        .concat(
          q && r
            ? [
                [
                  'quarry / readability',
                  ratio(q.precision, r.precision),
                  ratio(q.recall, r.recall),
                  ratio(q.accuracy, r.accuracy),
                  ratio(q.f1, r.f1),
                ],
              ]
            : [],
        ),
    ),
  );
}

function speedSection(): void {
  const rows = names.map((name) => {
    const t = timings.get(name) ?? { pages: 0, ms: 0 };
    return [
      name,
      String(t.pages),
      fixed(t.ms / Math.max(1, t.pages), 2),
      fixed((t.pages * 1000) / Math.max(1, t.ms), 1),
    ];
  });
  const [q, r] = names.map((name) => timings.get(name));
  const qRate = q ? (q.pages * 1000) / q.ms : 0;
  const rRate = r ? (r.pages * 1000) / r.ms : 0;
  console.log('\n## Speed (one core, same pages, extraction only)\n');
  console.log(
    table(
      ['extractor', 'pages', 'ms/page', 'pages/s'],
      [...rows, ['quarry / readability', '', '', ratio(qRate, rRate)]],
    ),
  );
}

if (!datasetsPresent()) {
  console.log(`extraction datasets not found in ${DATASET_DIR}; set EXTRACTION_DATASET_DIR`);
  process.exit(0);
}
console.log(`# Extraction benchmark — Quarry extract() vs linkedom + @mozilla/readability (node ${process.version})`);
if (!only || only === 'zyte') zyteSection();
if (!only || only === 'wcxb') wcxbSection();
if (!only || only === 'traf') snippetSection();
speedSection();
