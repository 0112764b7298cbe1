/**
 * npm run bench:ner — PER/ORG/LOC F1 of Quarry's offline entity recognizer
 * beside compromise 14.17.0, in one run:
 *
 * 1. wikigold + BTC + WNUT-17 together (CC-BY-4.0, third-party gold) under
 *    the evaluation protocol (bench/ner/cv.ts): the tagger trained per fold
 *    on the training folds (the same procedure as `npm run train:ner`),
 *    scored on the held-out fold; per-type F1, mean ± spread over 5 folds,
 *    per set out of fold, and the final fold with --final.
 * 2. News: 134 Zyte benchmark articles hand-annotated by us (never trained
 *    on: the article text is its publishers'), with the shipped model; text
 *    from ../shared/fixtures.
 *
 * Sets under ../shared/fixtures are skipped, saying so, when it is absent.
 */
import { loadGazetteer, EntityRecognizer } from '../services/entities/recognizer.js';
import { tagsToSpans, type TokenSpan } from '../services/entities/spans.js';
import { compromiseSpans } from './ner/compromise-baseline.js';
import { reportNerCv } from './ner/cv.js';
import { finalRequested } from './protocol/report.js';
import { nerPool, wcxbTrainingDocuments, zyteNews, type Document } from './ner/datasets.js';
import { count, emptyCounts, score, SCORED, type Counts } from './ner/score.js';

type System = (sentences: readonly (readonly string[])[]) => TokenSpan[][];

function evaluate(documents: Document[], system: System): { all: Counts; byType: Record<string, Counts>; ms: number } {
  const all = emptyCounts();
  const byType: Record<string, Counts> = Object.fromEntries(SCORED.map((t) => [t, emptyCounts()]));
  const started = performance.now();
  const predictions = documents.map((doc) => system(doc.map((s) => s.words)));
  const ms = performance.now() - started;
  documents.forEach((doc, d) =>
    doc.forEach((sentence, s) => {
      const gold = tagsToSpans(sentence.tags);
      const predicted = predictions[d]![s]!;
      count(all, gold, predicted);
      for (const type of SCORED) count(byType[type]!, gold, predicted, type);
    }),
  );
  return { all, byType, ms };
}

const pct = (value: number) => (value * 100).toFixed(1).padStart(5);

function report(name: string, documents: Document[], systems: Record<string, System>): void {
  const sentences = documents.reduce((n, d) => n + d.length, 0);
  const tokens = documents.reduce((n, d) => n + d.reduce((m, s) => m + s.words.length, 0), 0);
  console.log(`\n## ${name}: ${documents.length} documents, ${sentences} sentences, ${tokens} tokens`);
  console.log('| system | micro P | micro R | micro F1 | PER F1 | ORG F1 | LOC F1 | gold | ms | tokens/s |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const [label, system] of Object.entries(systems)) {
    const result = evaluate(documents, system);
    const micro = score(result.all);
    const per = SCORED.map((t) => pct(score(result.byType[t]!).f1)).join(' | ');
    const speed = ((tokens / result.ms) * 1000).toFixed(0);
    console.log(
      `| ${label} | ${pct(micro.precision)} | ${pct(micro.recall)} | **${pct(micro.f1)}** | ${per} | ${micro.counts.gold} | ${result.ms.toFixed(0)} | ${speed} |`,
    );
  }
}

console.log('# Named-entity recognition, PER/ORG/LOC, exact-span scores');
const pool = nerPool();
if (pool) reportNerCv(pool, loadGazetteer(), wcxbTrainingDocuments(), compromiseSpans, { final: finalRequested() });
else
  console.log(
    '\n(wikigold + BTC + WNUT cross-validation skipped: ../shared/fixtures not found; set QUARRY_SHARED_FIXTURES)',
  );
const news = zyteNews();
const shipped = EntityRecognizer.load();
if (news)
  report('News (134 Zyte articles, hand-annotated by us; never trained on), shipped model', news.documents, {
    'Quarry offline tagger (shipped)': (sentences) => shipped.tagWords(sentences),
    'compromise 14.17.0': compromiseSpans,
  });
else console.log('\n(News skipped: ../shared/fixtures not found; set QUARRY_SHARED_FIXTURES)');
console.log('\nRebuild the shipped model (trained on the 5 CV folds): npm run train:ner');
