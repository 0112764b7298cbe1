/**
 * Greedy left-to-right BIO tagging of the sentences of one document with the
 * averaged perceptron, and its training loop. The document matters: the
 * features ask whether a word is seen capitalised mid-sentence or in lower
 * case elsewhere in it.
 */
import { seededRandom, shuffleInPlace } from '../../core/seeded-random.js';
import { documentStats, sentenceContext, tokenFeatures, type SentenceContext } from './features.js';
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
  /** Called after each epoch with the model averaged so far (the candidates of an epoch choice). */
  onSnapshot?(epoch: number, model: Perceptron): void;
}

/** The type a tag names ("B-ORG" → "ORG"), recorded per capitalised word for the history feature. */
function remember(history: Map<string, string>, words: readonly string[], tags: readonly number[]): void {
  tags.forEach((tag, i) => {
    if (tag !== 0 && /^\p{Lu}/u.test(words[i]!)) history.set(words[i]!, TAGS[tag]!.slice(2));
  });
}

/** Tags one sentence left to right; with `truth`, learns from each mistake (training). */
function tagSentence(
  model: Perceptron,
  ctx: SentenceContext,
  history: Map<string, string>,
  truth?: readonly number[],
): number[] {
  const tags: number[] = [];
  let prev = 0;
  let prev2 = 0;
  for (let i = 0; i < ctx.words.length; i++) {
    const word = ctx.words[i]!;
    const features = tokenFeatures(ctx, i, TAGS[prev]!, TAGS[prev2]!, history.get(word));
    const guess = model.predict(features, allowedAfter(prev));
    if (truth) model.update(truth[i]!, guess, features);
    tags.push(guess);
    prev2 = prev;
    prev = guess;
  }
  remember(history, ctx.words, tags);
  return tags;
}

/** Tags a document's sentences in order: what earlier sentences said of a word is a feature of its later mentions. */
function tagContexts(
  model: Perceptron,
  contexts: readonly SentenceContext[],
  truth?: readonly (readonly number[])[],
): number[][] {
  const history = new Map<string, string>();
  return contexts.map((ctx, s) => tagSentence(model, ctx, history, truth?.[s]));
}

/**
 * The tags of a document's sentences, with the sentence contexts they were computed on (the span typer reads them too).
 */
export function tagDocumentContexts(
  model: Perceptron,
  gazetteer: Gazetteer,
  sentences: readonly (readonly string[])[],
): { contexts: SentenceContext[]; tags: Tag[][] } {
  const doc = documentStats(sentences);
  const contexts = sentences.map((words) => sentenceContext(words, gazetteer, doc));
  return { contexts, tags: tagContexts(model, contexts).map((tags) => tags.map((t) => TAGS[t]!)) };
}

export function trainTagger(
  documents: readonly LabelledSentence[][],
  gazetteer: Gazetteer,
  options: TrainingOptions,
): Perceptron {
  const model = new Perceptron();
  const next = seededRandom(options.seed);
  const order = documents.map((sentences) => {
    const doc = documentStats(sentences.map((s) => s.words));
    return {
      contexts: sentences.map((s) => sentenceContext(s.words, gazetteer, doc)),
      truth: sentences.map((s) => s.tags.map((t) => TAGS.indexOf(t))),
    };
  });
  for (let epoch = 1; epoch <= options.epochs; epoch++) {
    // Documents are shuffled; sentences keep their order, so the document features see what they will see when tagging.
    shuffleInPlace(order, next);
    let errors = 0;
    let tokens = 0;
    for (const { contexts, truth } of order) {
      tagContexts(model, contexts, truth).forEach((guesses, s) => {
        guesses.forEach((guess, i) => (errors += guess === truth[s]![i] ? 0 : 1));
        tokens += guesses.length;
      });
    }
    options.onEpoch?.(epoch, errors, tokens);
    if (options.onSnapshot && epoch < options.epochs) options.onSnapshot(epoch, model.averaged());
  }
  model.average();
  options.onSnapshot?.(options.epochs, model);
  return model;
}
