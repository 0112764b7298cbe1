#!/usr/bin/env node
/**
 * Trains the offline entity tagger and writes
 * services/entities/model/ner-model.json.gz. Run through `npm run train:ner`
 * (builds first: the tagger and the dataset readers are TypeScript).
 *
 * Training data (bench/ner/data, provenance in services/entities/model/PROVENANCE.md):
 *   WNUT-17 dev split (1,009 tweets, CC-BY-4.0, copied), the first 122 sentences
 *   of wikigold's training split (CC-BY-4.0, copied), 16 WCXB pages
 *   (CC-BY-4.0, copied) and 112 Zyte benchmark news articles (text read from
 *   ../shared/fixtures, not redistributed), both hand-annotated by us.
 * Deterministic: fixed epochs and shuffling seed; a few seconds on one core.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const dist = new URL('../dist/', import.meta.url);
const { wcxbTrainingDocuments, wikigoldTrain, wnutDev, zyteNewsTrain } = await import(new URL('bench/ner/datasets.js', dist).href);
const { loadGazetteer, MODEL_DIR, MODEL_FILE } = await import(new URL('services/entities/recognizer.js', dist).href);
const { trainTagger } = await import(new URL('services/entities/sequence-tagger.js', dist).href);

const EPOCHS = 10;
const SEED = 20261125;

const zyte = zyteNewsTrain();
if (!zyte) throw new Error('the Zyte benchmark texts are needed for training: ../shared/fixtures/extraction/zyte-truth (or QUARRY_SHARED_FIXTURES)');
const documents = [...wnutDev(), ...wikigoldTrain(), ...wcxbTrainingDocuments(), ...zyte.documents];
const sentences = documents.reduce((n, d) => n + d.length, 0);
console.log(`training on ${documents.length} documents, ${sentences} sentences`);
const started = performance.now();
const model = trainTagger(documents, loadGazetteer(), {
  epochs: EPOCHS,
  seed: SEED,
  onEpoch: (epoch, errors, tokens) => console.log(`epoch ${epoch}: ${((1 - errors / tokens) * 100).toFixed(2)}% tokens right`),
});
const serialized = model.serialize(0.01);
const path = join(MODEL_DIR, MODEL_FILE);
const gz = gzipSync(JSON.stringify(serialized), { level: 9 });
writeFileSync(path, gz);
console.log(`wrote ${path}: ${Object.keys(serialized.weights).length} features, ${(gz.length / 1024).toFixed(0)} KiB, in ${((performance.now() - started) / 1000).toFixed(1)} s`);
