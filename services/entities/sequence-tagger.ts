/**
 * Greedy left-to-right BIO tagging of the sentences of one document with the
 * averaged perceptron, and its training loop. The document matters: the
 * features ask whether a word is seen capitalised mid-sentence or in lower
 * case elsewhere in it.
 */
import { seededRandom } from '../../core/seeded-random.js';
import { documentStats, sentenceContext, tokenFeatures } from './features.js';
import type { Gazetteer } from './gazetteer.js';
import { allowedAfter, Perceptron, TAGS, type Tag } from './perceptron.js';

export interface LabelledSentence {
  words: string[];
  tags: Tag[];
}

export interface TrainingOptions {
  epochs: number;
  seed: number;
  /** Called after each epoch (progress output of the training script). */
  onEpoch?(epoch: number, errors: number, tokens: number): void;
}

export function tagDocument(model: Perceptron, gazetteer: Gazetteer, sentences: readonly (readonly string[])[]): Tag[][] {
  const doc = documentStats(sentences);
  return sentences.map((words) => {
    const ctx = sentenceContext(words, gazetteer, doc);
    const tags: Tag[] = [];
    let prev = 0;
    let prev2 = 0;
    for (let i = 0; i < words.length; i++) {
      const guess = model.predict(tokenFeatures(ctx, i, TAGS[prev]!, TAGS[prev2]!), allowedAfter(prev));
      tags.push(TAGS[guess]!);
      prev2 = prev;
      prev = guess;
    }
    return tags;
  });
}

export function trainTagger(documents: readonly LabelledSentence[][], gazetteer: Gazetteer, options: TrainingOptions): Perceptron {
  const model = new Perceptron();
  const next = seededRandom(options.seed);
  const prepared = documents.map((sentences) => {
    const doc = documentStats(sentences.map((s) => s.words));
    return sentences.map((s) => ({ ctx: sentenceContext(s.words, gazetteer, doc), truth: s.tags.map((t) => TAGS.indexOf(t)) }));
  });
  const order = prepared.flat();
  for (let epoch = 1; epoch <= options.epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    let errors = 0;
    let tokens = 0;
    for (const { ctx, truth } of order) {
      let prev = 0;
      let prev2 = 0;
      for (let i = 0; i < truth.length; i++) {
        const features = tokenFeatures(ctx, i, TAGS[prev]!, TAGS[prev2]!);
        const guess = model.predict(features, allowedAfter(prev));
        model.update(truth[i]!, guess, features);
        if (guess !== truth[i]) errors += 1;
        tokens += 1;
        prev2 = prev;
        prev = guess;
      }
    }
    options.onEpoch?.(epoch, errors, tokens);
  }
  model.average();
  return model;
}
