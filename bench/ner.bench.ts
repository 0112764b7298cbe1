/**
 * npm run bench:ner — PER/ORG/LOC micro-F1 of Quarry's offline entity
 * recognizer beside compromise 14.17.0, in one run, on:
 *
 * 1. wikigold, the articles held out from training (CC-BY-4.0, third-party
 *    gold; encyclopedic text).
 * 2. BTC section H, held out from training (CC-BY-4.0, third-party gold;
 *    tweets), read from ../shared/fixtures.
 * 3. WNUT-17 test (CC-BY-4.0, third-party gold; social media; never trained on).
 * 4. News: 134 Zyte benchmark articles hand-annotated by us (never trained
 *    on: the article text is its publishers'); text from ../shared/fixtures.
 *
 * Then wikigold, BTC and WNUT together under the evaluation protocol
 * (bench/ner/cv.ts): per-type F1, mean ± spread over 5 folds, the final fold
 * with --final. Sets under ../shared/fixtures are skipped, saying so, when it is absent.
 * The model is rebuilt from its training data by `npm run train:ner`.
 */
import { EntityRecognizer } from '../services/entities/recognizer.js';
import { tagsToSpans, type TokenSpan } from '../services/entities/spans.js';
import { compromiseSpans } from './ner/compromise-baseline.js';
import { reportNerCv } from './ner/cv.js';
import { finalRequested } from './protocol/report.js';
import { btcTest, wikigoldHeldOut, wnutTest, zyteNews, type Document } from './ner/datasets.js';
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
  console.log('| system | micro P | micro R | micro F1 | PER F1 | ORG F1 | LOC F1 | gold | ms |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const [label, system] of Object.entries(systems)) {
    const result = evaluate(documents, system);
    const micro = score(result.all);
    const per = SCORED.map((t) => pct(score(result.byType[t]!).f1)).join(' | ');
    console.log(
      `| ${label} | ${pct(micro.precision)} | ${pct(micro.recall)} | **${pct(micro.f1)}** | ${per} | ${micro.counts.gold} | ${result.ms.toFixed(0)} |`,
    );
  }
}

const recognizer = EntityRecognizer.load();
const systems: Record<string, System> = {
  'Quarry offline tagger': (sentences) => recognizer.tagWords(sentences),
  'compromise 14.17.0': compromiseSpans,
};

console.log('# Named-entity recognition, PER/ORG/LOC, exact-span micro scores (%)');
report('wikigold, held-out articles (third-party gold, Wikipedia)', wikigoldHeldOut(), systems);
const optional: Array<[string, Document[] | null | undefined]> = [
  ['BTC section H, held out (third-party gold, tweets)', btcTest()],
  ['WNUT-17 test (third-party gold, social media; corporation+group = ORG; not trained on)', wnutTest()],
  ['News (134 Zyte articles, hand-annotated by us; not trained on)', zyteNews()?.documents],
];
for (const [name, documents] of optional) {
  if (documents) report(name, documents, systems);
  else console.log(`\n(${name} skipped: ../shared/fixtures not found; set QUARRY_SHARED_FIXTURES)`);
}
const pooled = [
  ['wikigold', wikigoldHeldOut()],
  ['btc', btcTest()],
  ['wnut', wnutTest()],
] as const;
reportNerCv(
  pooled.flatMap(([set, documents]) => (documents ?? []).map((document, i) => ({ id: `${set}:${i}`, document }))),
  systems,
  { final: finalRequested() },
);
console.log(
  '\nRebuild the model from its training data: npm run train:ner (gazetteer: node scripts/build-ner-gazetteer.mjs)',
);
