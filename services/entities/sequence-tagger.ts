/**
 * BIO tagging of the sentences of one document with the averaged structured
 * perceptron (Viterbi decoding over the previous tag), and its training loop. The document matters: the
 * features ask whether a word is seen capitalised mid-sentence or in lower
 * case elsewhere in it.
 */
import { seededRandom, shuffleInPlace } from '../../core/seeded-random.js';
import {
  documentStats,
  emissionFeatures,
  parseTransitionFeature,
  sentenceContext,
  transitionFeature,
  transitionFeatures,
  transitionParts,
  type SentenceContext,
  type TransitionPart,
} from './features.js';
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

/** The type a tag names ("B-ORG" → "ORG"), recorded per capitalised word for the history feature. */
function remember(history: Map<string, string>, words: readonly string[], tags: readonly number[]): void {
  tags.forEach((tag, i) => {
    if (tag !== 0 && /^\p{Lu}/u.test(words[i]!)) history.set(words[i]!, TAGS[tag]!.slice(2));
  });
}

const N = TAGS.length;
/** ALLOWED[p][t]: tag t may follow tag p (BIO: I-X only right after B-X or I-X). */
const ALLOWED = TAGS.map((_, p) => {
  const allowed = allowedAfter(p);
  return TAGS.map((_, t) => allowed(t));
});

/**
 * A trained model's transition weights by part, each an N×N table (previous tag × tag): tagging looks a
 * token's part up once for every previous tag, where the features would be one name per previous tag. The
 * sums are made in the same order as the features', so the tags are the same. Built when a model first
 * tags (a model is not trained after that); training scores the features themselves.
 */
class TransitionTable {
  private readonly tables = new Map<string, Float64Array>();

  constructor(model: Perceptron) {
    for (const [feature, weights] of model.weights) {
      const parsed = parseTransitionFeature(feature);
      const p = parsed ? TAGS.indexOf(parsed.prev as Tag) : -1;
      if (!parsed || p < 0) continue;
      const key = `${parsed.part[0]}\u0000${parsed.part[1]}`;
      let table = this.tables.get(key);
      if (!table) this.tables.set(key, (table = new Float64Array(N * N)));
      for (let t = 0; t < N; t++) table[p * N + t] = weights[t]!;
    }
  }

  /** scores[p·N + t]: the transition score of tag t after tag p at a token with these parts. */
  scores(parts: readonly TransitionPart[]): Float64Array {
    const scores = new Float64Array(N * N);
    for (const [kind, value] of parts) {
      const table = this.tables.get(`${kind}\u0000${value}`);
      if (table) for (let k = 0; k < N * N; k++) scores[k]! += table[k]!;
    }
    return scores;
  }
}

const tables = new WeakMap<Perceptron, TransitionTable>();

function transitionTable(model: Perceptron): TransitionTable {
  let table = tables.get(model);
  if (!table) tables.set(model, (table = new TransitionTable(model)));
  return table;
}

/**
 * The best-scoring valid tag sequence of one sentence (Viterbi over the
 * tag before each token): a token's tag is chosen with the tags after it in
 * view, which a left-to-right guess cannot do ("@" before a handle takes the
 * handle's type). `learning`: the model is being trained (its features are
 * scored as they are; a trained model's are read from its transition table).
 */
function decode(
  model: Perceptron,
  ctx: SentenceContext,
  history: ReadonlyMap<string, string>,
  learning: boolean,
): number[] {
  const n = ctx.words.length;
  const best = new Float64Array(n * N).fill(Number.NEGATIVE_INFINITY);
  const back = new Int8Array(n * N);
  const table = learning ? null : transitionTable(model);
  for (let i = 0; i < n; i++) {
    const seen = history.get(ctx.words[i]!);
    const emission = model.scores(emissionFeatures(ctx, i, seen));
    const parts = transitionParts(ctx, i, seen);
    const tabled = table?.scores(parts);
    for (let p = 0; p < (i === 0 ? 1 : N); p++) {
      const before = i === 0 ? 0 : best[(i - 1) * N + p]!;
      if (before === Number.NEGATIVE_INFINITY) continue;
      const transition = tabled
        ? tabled.subarray(p * N, (p + 1) * N)
        : model.scores(parts.map((part) => transitionFeature(part, TAGS[p]!)));
      for (let t = 0; t < N; t++) {
        if (!ALLOWED[p]![t]) continue;
        const value = before + transition[t]! + emission[t]!;
        if (value > best[i * N + t]!) {
          best[i * N + t] = value;
          back[i * N + t] = p;
        }
      }
    }
  }
  const tags = new Array<number>(n);
  if (n === 0) return tags;
  let tag = 0;
  for (let t = 1; t < N; t++) if (best[(n - 1) * N + t]! > best[(n - 1) * N + tag]!) tag = t;
  for (let i = n - 1; i >= 0; i--) {
    tags[i] = tag;
    tag = back[i * N + tag]!;
  }
  return tags;
}

/**
 * Tags one sentence; with `truth`, learns from the difference between the
 * guessed and the true sequence (Collins' structured perceptron): at each
 * token whose tag or tag before differs, the true features gain and the
 * guessed ones lose.
 */
function tagSentence(
  model: Perceptron,
  ctx: SentenceContext,
  history: Map<string, string>,
  truth?: readonly number[],
): number[] {
  const tags = decode(model, ctx, history, truth !== undefined);
  if (truth)
    for (let i = 0; i < tags.length; i++) {
      model.tick();
      const guess = tags[i]!;
      const right = truth[i]!;
      const guessBefore = i === 0 ? 0 : tags[i - 1]!;
      const rightBefore = i === 0 ? 0 : truth[i - 1]!;
      if (guess === right && guessBefore === rightBefore) continue;
      const seen = history.get(ctx.words[i]!);
      if (guess !== right) {
        const emission = emissionFeatures(ctx, i, seen);
        model.adjust(emission, right, 1);
        model.adjust(emission, guess, -1);
      }
      model.adjust(transitionFeatures(ctx, i, TAGS[rightBefore]!, seen), right, 1);
      model.adjust(transitionFeatures(ctx, i, TAGS[guessBefore]!, seen), guess, -1);
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
  }
  model.average();
  return model;
}
