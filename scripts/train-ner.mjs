#!/usr/bin/env node
/**
 * Trains the offline entity tagger and writes
 * services/entities/model/ner-model.json.gz. Run through `npm run train:ner`
 * (builds first: the tagger and the dataset readers are TypeScript).
 *
 * Training data — only sets whose licence allows shipping the weights
 * (provenance and attribution in services/entities/model/PROVENANCE.md):
 *   wikigold, the articles not held out (CC-BY-4.0, bench/ner/data/wikigold), four times per epoch
 *   (the closest to news prose of the sets);
 *   BTC sections A, B, E, F, G (CC-BY-4.0, read from ../shared/fixtures; H is held out);
 *   WNUT-17 dev (CC-BY-4.0, read from ../shared/fixtures; the test split is held out);
 *   16 WCXB news openings (CC-BY-4.0 text, annotated by us, bench/ner/data/news).
 * The Zyte news annotations are never trained on: that article text is its publishers'.
 * The tagger is the mean of taggers trained on the same data shuffled with
 * different seeds, each in its own worker thread (parameter mixing: on the
 * development fold of scripts/tune-ner.mjs the mean of three beat each of
 * them, by 1 to 2 F1 on wikigold and up to 2.5 on tweets).
 * Then the span typer (services/entities/span-typer.ts) learns from the same
 * documents' gold spans, stacked on the tagger: each document's tagger spans
 * come from a tagger trained without it (one single-seed tagger per third of
 * the documents, in worker threads beside the others), so the typer learns
 * how far to trust the tagger, and to drop its spurious spans, on output like
 * the tagger's on new text. Its weights share the file under `span|`.
 * `--typer-only` keeps the tagger's weights from the model file and trains
 * the out-of-fold taggers and the typer (the same result, in a few minutes).
 * Deterministic: fixed epochs and shuffling seeds.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { gunzipSync, gzipSync } from 'node:zlib';

const dist = new URL('../dist/', import.meta.url);
const { btcTrain, wcxbTrainingDocuments, wikigoldTrain, wnutDev } = await import(
  new URL('bench/ner/datasets.js', dist).href
);
const { loadGazetteer, MODEL_DIR, MODEL_FILE, taggerSpans } = await import(
  new URL('services/entities/recognizer.js', dist).href
);
const { trainTagger } = await import(new URL('services/entities/sequence-tagger.js', dist).href);
const { trainSpanTyper } = await import(new URL('services/entities/span-typer.js', dist).href);
const { Perceptron, TAGS } = await import(new URL('services/entities/perceptron.js', dist).href);

const EPOCHS = 3;
const TYPER_EPOCHS = 8;
const SEED = 20261125;
/** One tagger per seed, averaged. */
const TAGGER_SEEDS = [SEED, 7, 99];
/**
 * wikigold counts four times per epoch: it is the set closest to the prose Quarry reads (+1.7 F1 on a wikigold
 * development fold, −0.6 on BTC).
 */
const WIKIGOLD_COPIES = 4;
/** The typer's first pass comes from this many taggers, each trained without one part of the documents. */
const FIRST_PASS_FOLDS = 3;

function trainingDocuments() {
  const btc = btcTrain();
  const wnut = wnutDev();
  if (!btc || !wnut)
    throw new Error(
      'BTC and WNUT-17 are read from ../shared/fixtures/datasets/ner at training time (or set QUARRY_SHARED_FIXTURES)',
    );
  const wikigold = wikigoldTrain();
  return [
    ...Array.from({ length: WIKIGOLD_COPIES }, () => wikigold).flat(),
    ...btc,
    ...wnut,
    ...wcxbTrainingDocuments(),
  ];
}

/** Which part of the documents each distinct document is in (the wikigold copies of one article fall together). */
function firstPassFolds(documents) {
  return new Map([...new Set(documents)].map((doc, i) => [doc, i % FIRST_PASS_FOLDS]));
}

if (!isMainThread) {
  // A worker: trains one tagger with its seed and sends back the unpruned weights; with a fold, trains without that
  // part of the documents and sends back its spans of the part (the typer's out-of-fold first pass), by
  // distinct-document index.
  const { seed, fold } = workerData;
  const documents = trainingDocuments();
  const folds = firstPassFolds(documents);
  const gazetteer = loadGazetteer();
  const tagger = trainTagger(
    fold === undefined ? documents : documents.filter((doc) => folds.get(doc) !== fold),
    gazetteer,
    {
      epochs: EPOCHS,
      seed,
      onEpoch: (epoch, errors, tokens) =>
        console.log(
          `${fold === undefined ? '' : `fold ${fold} `}seed ${seed} epoch ${epoch}: ${((1 - errors / tokens) * 100).toFixed(2)}% tokens right`,
        ),
    },
  );
  if (fold === undefined) parentPort.postMessage(tagger.serialize(0));
  else
    parentPort.postMessage(
      [...folds].flatMap(([doc, k], i) =>
        k === fold
          ? [
              [
                i,
                taggerSpans(
                  tagger,
                  gazetteer,
                  doc.map((s) => s.words),
                ).spans,
              ],
            ]
          : [],
      ),
    );
} else {
  const documents = trainingDocuments();
  const sentences = documents.reduce((n, d) => n + d.length, 0);
  console.log(`training on ${documents.length} documents, ${sentences} sentences`);
  const started = performance.now();
  const gazetteer = loadGazetteer();
  const path = join(MODEL_DIR, MODEL_FILE);
  const trainInWorker = (seed, fold) =>
    new Promise((resolve, reject) => {
      const worker = new Worker(new URL(import.meta.url), { workerData: { seed, fold } });
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.once(
        'exit',
        (code) =>
          code !== 0 && reject(new Error(`tagger worker (seed ${seed}, fold ${fold ?? 'none'}) exited with ${code}`)),
      );
    });
  const unique = [...new Set(documents)];
  const firstPassing = Promise.all(
    Array.from({ length: FIRST_PASS_FOLDS }, (_, fold) => trainInWorker(SEED, fold)),
  ).then((parts) => new Map(parts.flat().map(([i, spans]) => [unique[i], spans])));
  // Tagger features whose largest weight is under 0.75 are dropped: 42% of the mean's features kept, no F1 lost on the
  // development fold (pruning at 1.5 kept 14% and lost 0.7 on wikigold: the mean of three 3-epoch taggers has smaller
  // weights than one 12-epoch tagger had).
  // --typer-only keeps the tagger's weights from the model file: the typer learns from the gold spans and the
  // out-of-fold taggers' spans, not from the shipped tagger, so the result is the same as a full run's.
  const taggerWeights = process.argv.includes('--typer-only')
    ? Object.fromEntries(
        Object.entries(JSON.parse(gunzipSync(readFileSync(path)).toString('utf8')).weights).filter(
          ([feature]) => !feature.startsWith('span|'),
        ),
      )
    : Perceptron.mean(await Promise.all(TAGGER_SEEDS.map((seed) => trainInWorker(seed)))).serialize(0.75).weights;
  const typer = trainSpanTyper(documents, gazetteer, {
    epochs: TYPER_EPOCHS,
    seed: SEED,
    firstPass: await firstPassing,
  });
  // The span typer's weights (prefix `span|`) share the file; averaged over fewer updates they are smaller, so they are
  // pruned lower.
  const serialized = { tags: TAGS, weights: { ...taggerWeights, ...typer.serialize(0.05).weights } };
  const gz = gzipSync(JSON.stringify(serialized), { level: 9 });
  writeFileSync(path, gz);
  console.log(
    `wrote ${path}: ${Object.keys(serialized.weights).length} features, ${(gz.length / 1024).toFixed(0)} KiB, in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}
