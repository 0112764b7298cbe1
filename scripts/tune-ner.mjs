#!/usr/bin/env node
/**
 * The quick loop for trying tagger ideas in minutes, not the shipped model:
 * trains on the training sets minus a development fold (wikigold training
 * articles — a third of them, chosen by NER_DEV_FOLD — and BTC section G), with fewer epochs, and
 * scores that fold per type with the error classes of each type (wrong type,
 * wrong boundary, missed, spurious). The held-out sets (wikigold index mod
 * 4 = 3, BTC H, WNUT-17 test) are never read here: they are measured once,
 * by `npm run bench:ner`, after the final `npm run train:ner`.
 *
 * Run after `npm run build`: node scripts/tune-ner.mjs [epochs=3]
 * (env: NER_DEV_FOLD=0|1|2, NER_WIKIGOLD_COPIES, NER_TYPER_EPOCHS, NER_TAGGER_CACHE, NER_SEEDS=a,b,c,
 * NER_EXAMPLES=ORG|PER|LOC, NER_STACK=1 with NER_OOF_CACHE and NER_OOF_FOLDS for the stacked span typer as
 * train-ner.mjs trains it). NER_DEV_FOLD picks which third of the wikigold training articles is set aside (default 1,
 * the fold of the earlier sessions, much tuned on): an idea is kept only if it helps on two folds.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

const dist = new URL('../dist/', import.meta.url);
const { btcSections, wcxbTrainingDocuments, wikigoldTrain, wnutDev } = await import(
  new URL('bench/ner/datasets.js', dist).href
);
const { EntityRecognizer, loadGazetteer, taggerSpans } = await import(
  new URL('services/entities/recognizer.js', dist).href
);
const { trainTagger } = await import(new URL('services/entities/sequence-tagger.js', dist).href);
const { trainSpanTyper } = await import(new URL('services/entities/span-typer.js', dist).href);
const { Perceptron } = await import(new URL('services/entities/perceptron.js', dist).href);
const { tagsToSpans } = await import(new URL('services/entities/spans.js', dist).href);
const { count, emptyCounts, score, SCORED } = await import(new URL('bench/ner/score.js', dist).href);

const epochs = Number(process.argv[2] ?? 3);
const wikigold = wikigoldTrain();
// wikigoldTrain() keeps the articles whose index mod 4 ≠ 3, in order: 0, 1, 2, 4, 5, 6, … — fold 1 (every third from
// the second) is index mod 4 = 1.
const fold = Number(process.env.NER_DEV_FOLD ?? 1);
if (![0, 1, 2].includes(fold)) throw new Error('NER_DEV_FOLD is 0, 1 or 2');
const wikigoldDev = wikigold.filter((_, i) => i % 3 === fold);
const wikigoldFit = wikigold.filter((_, i) => i % 3 !== fold);
const btcFit = btcSections(['a', 'b', 'e', 'f']);
const btcDev = btcSections(['g']);
const wnut = wnutDev();
if (!btcFit || !wnut) throw new Error('BTC and WNUT-17 are read from ../shared/fixtures/datasets/ner');

const gazetteer = loadGazetteer();
const started = performance.now();
const copies = Number(process.env.NER_WIKIGOLD_COPIES ?? 4);
const training = [
  ...Array.from({ length: copies }, () => wikigoldFit).flat(),
  ...btcFit,
  ...wnut,
  ...wcxbTrainingDocuments(),
];
// NER_TAGGER_CACHE=file: the first run saves the trained tagger there, later runs load it (span-typer and
// post-processing ideas in seconds).
const cache = process.env.NER_TAGGER_CACHE;
// NER_SEEDS=a,b,c: one tagger per shuffling seed, averaged as train-ner.mjs does (one seed, the default, trains a
// single tagger).
const seeds = (process.env.NER_SEEDS ?? '20261125').split(',').map(Number);
const trainOne = (seed) =>
  trainTagger(training, gazetteer, {
    epochs,
    seed,
    onEpoch: (epoch, errors, tokens) =>
      console.log(`seed ${seed} epoch ${epoch}: ${((1 - errors / tokens) * 100).toFixed(2)}% tokens right`),
  });
const tagger =
  cache && existsSync(cache)
    ? Perceptron.load(JSON.parse(readFileSync(cache, 'utf8')))
    : seeds.length === 1
      ? trainOne(seeds[0])
      : Perceptron.mean(seeds.map((seed) => trainOne(seed).serialize(0)));
if (cache && !existsSync(cache)) writeFileSync(cache, JSON.stringify(tagger.serialize(0)));
console.log(`tagger ready in ${((performance.now() - started) / 1000).toFixed(1)} s`);
// NER_STACK=1: the span typer is stacked on the tagger's out-of-fold spans of the training documents (one single-seed
// tagger per third of them, trained on the rest); NER_OOF_CACHE=file keeps those spans.
const firstPass = process.env.NER_STACK === '1' ? outOfFoldSpans() : undefined;
const typerEpochs = Number(process.env.NER_TYPER_EPOCHS ?? 8);
const typer =
  typerEpochs > 0
    ? trainSpanTyper(training, gazetteer, { epochs: typerEpochs, seed: 20261125, firstPass }).serialize(0).weights
    : {};
const model = Perceptron.load({
  tags: tagger.serialize(0).tags,
  weights: { ...tagger.serialize(0).weights, ...typer },
});
console.log(`span typer ${typerEpochs} epochs, total ${((performance.now() - started) / 1000).toFixed(1)} s`);
const recognizer = new EntityRecognizer(model, gazetteer);

function outOfFoldSpans() {
  const unique = [...new Set(training)];
  const path = process.env.NER_OOF_CACHE;
  if (path && existsSync(path)) {
    const cached = JSON.parse(readFileSync(path, 'utf8'));
    return new Map(unique.map((doc, i) => [doc, cached[i]]));
  }
  const folds = Number(process.env.NER_OOF_FOLDS ?? 3);
  const fold = new Map(unique.map((doc, i) => [doc, i % folds]));
  const spans = new Map();
  for (let k = 0; k < folds; k++) {
    const inner = trainTagger(
      training.filter((doc) => fold.get(doc) !== k),
      gazetteer,
      { epochs, seed: 20261125 },
    );
    for (const doc of unique.filter((d) => fold.get(d) === k))
      spans.set(
        doc,
        taggerSpans(
          inner,
          gazetteer,
          doc.map((s) => s.words),
        ).spans,
      );
    console.log(`out-of-fold tagger ${k + 1}/${folds} at ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  if (path) writeFileSync(path, JSON.stringify(unique.map((doc) => spans.get(doc))));
  return spans;
}

const key = (s) => `${s.start}:${s.end}`;
const overlaps = (a, b) => a.start < b.end && b.start < a.end;

function evaluate(name, documents) {
  const all = emptyCounts();
  const byType = Object.fromEntries(SCORED.map((t) => [t, emptyCounts()]));
  const errors = Object.fromEntries(SCORED.map((t) => [t, new Map()]));
  const note = (type, what) => errors[type].set(what, (errors[type].get(what) ?? 0) + 1);
  const examples = [];
  for (const doc of documents) {
    const predicted = recognizer.tagWords(doc.map((s) => s.words));
    doc.forEach((sentence, s) => {
      const gold = tagsToSpans(sentence.tags);
      const guess = predicted[s];
      count(all, gold, guess);
      for (const type of SCORED) count(byType[type], gold, guess, type);
      for (const g of gold.filter((g) => SCORED.includes(g.type))) {
        const same = guess.find((p) => key(p) === key(g));
        if (same?.type === g.type) continue;
        const what = same ? `typed ${same.type}` : guess.some((p) => overlaps(p, g)) ? 'boundary' : 'missed';
        note(g.type, what);
        if (g.type === (process.env.NER_EXAMPLES ?? 'ORG') && examples.length < 120)
          examples.push(`${what}: ${sentence.words.slice(g.start, g.end).join(' ')}`);
      }
      for (const p of guess.filter((p) => SCORED.includes(p.type))) {
        if (!gold.some((g) => overlaps(p, g))) note(p.type, 'spurious');
        else if (!gold.some((g) => key(g) === key(p)) && gold.some((g) => overlaps(p, g) && g.type === 'MISC'))
          note(p.type, 'spurious (gold MISC)');
      }
    });
  }
  const pct = (v) => (v * 100).toFixed(1);
  const micro = score(all);
  console.log(
    `\n${name}: micro F1 ${pct(micro.f1)} (P ${pct(micro.precision)}, R ${pct(micro.recall)}) | ${SCORED.map((t) => `${t} ${pct(score(byType[t]).f1)}`).join(' | ')}`,
  );
  for (const type of SCORED)
    console.log(
      `  ${type} errors: ${[...errors[type]]
        .sort((a, b) => b[1] - a[1])
        .map(([w, n]) => `${w} ${n}`)
        .join(', ')}`,
    );
  if (process.env.NER_EXAMPLES) console.log(examples.map((e) => `    ${e}`).join('\n'));
}

evaluate(`wikigold dev fold ${fold} (${wikigoldDev.length} training articles set aside)`, wikigoldDev);
evaluate('BTC section G (set aside)', btcDev);
