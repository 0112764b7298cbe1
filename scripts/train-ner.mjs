#!/usr/bin/env node
/**
 * Trains the offline entity tagger and writes
 * services/entities/model/ner-model.json.gz. Run through `npm run train:ner`
 * (builds first: the tagger, the dataset readers and the procedure are TypeScript).
 *
 * The procedure is bench/ner/fit.ts, the one bench:ner cross-validates: the
 * structured-perceptron tagger and the span typer trained on the given
 * documents. Here the documents are the five CV folds of the NER pool
 * (wikigold, BTC A–H and WNUT-17 dev + test, all CC-BY-4.0; bench/ner/cv.ts
 * deals them) and the 16 hand-annotated WCXB news openings; the final fold
 * is never trained on (provenance and attribution in
 * services/entities/model/PROVENANCE.md). The Zyte news annotations are never
 * trained on either: that article text is its publishers'.
 * Deterministic: fixed folds, epochs and shuffling seed.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const dist = new URL('../dist/', import.meta.url);
const { nerPool, wcxbTrainingDocuments } = await import(new URL('bench/ner/datasets.js', dist).href);
const { nerSplit } = await import(new URL('bench/ner/cv.js', dist).href);
const { fitNerModel } = await import(new URL('bench/ner/fit.js', dist).href);
const { loadGazetteer, MODEL_DIR, MODEL_FILE } = await import(new URL('services/entities/recognizer.js', dist).href);

const pool = nerPool();
if (!pool)
  throw new Error(
    'BTC and WNUT-17 are read from ../shared/fixtures/datasets/ner at training time (or set QUARRY_SHARED_FIXTURES)',
  );
const split = nerSplit(pool);
const train = split.folds.flat();
const extra = wcxbTrainingDocuments();
const sentences = [...train.map((d) => d.document), ...extra].reduce((n, d) => n + d.length, 0);
console.log(
  `training on the 5 CV folds (${train.length} documents) and ${extra.length} WCXB openings, ${sentences} sentences; ` +
    `${split.final.length} final-fold documents left out`,
);
const started = performance.now();
const fit = fitNerModel(train, loadGazetteer(), { extra, log: (line) => console.log(line) });
const path = join(MODEL_DIR, MODEL_FILE);
const gz = gzipSync(JSON.stringify(fit.model), { level: 9 });
writeFileSync(path, gz);
console.log(
  `wrote ${path}: ${fit.epochs} epochs, ${Object.keys(fit.model.weights).length} features, ` +
    `${(gz.length / 1024).toFixed(0)} KiB, in ${((performance.now() - started) / 1000).toFixed(1)} s`,
);
