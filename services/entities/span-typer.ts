/**
 * The second stage of the tagger: gives each span the tagger found its type
 * (PER, ORG, LOC, MISC) from the whole span at once, which the left-to-right
 * tagger cannot see when it types the first word ("Orlando Regional Medical
 * Center", "Brussels Stock Exchange": the last word decides). The scores of
 * every mention of the same string in a document are summed, so one name
 * gets one type from all its contexts. Its weights live in the tagger's
 * model under the `span|` prefix.
 */
import { seededRandom, shuffleInPlace } from '../../core/seeded-random.js';
import { predicateWords, readDefinitions, spanText } from './definitions.js';
import { documentStats, markFeatures, sentenceContext, type SentenceContext } from './features.js';
import type { Gazetteer } from './gazetteer.js';
import { Perceptron, TAGS } from './perceptron.js';
import { tagsToSpans, type SpanType, type TokenSpan } from './spans.js';
import type { LabelledSentence } from './sequence-tagger.js';

const TYPES: readonly SpanType[] = ['PER', 'ORG', 'LOC', 'MISC'];
/** The perceptron's classes are BIO tags; a span's type is scored on its B- tag. */
const TYPE_TAG = TYPES.map((type) => TAGS.indexOf(`B-${type}`));
const isTypeTag = (tag: number) => TYPE_TAG.includes(tag);
/**
 * What the tagger's own type is worth beside the span typer's scores, per
 * mention. On the development fold of scripts/tune-ner.mjs the typer alone
 * gained 1.8 F1 on wikigold but lost 1.1 on tweets; with the tagger's vote
 * it gains on both (10 to 25 alike within 0.5 F1). 10, the low end, lets a
 * clear typer overrule a tagger that is wrong at every mention ("Salesforce"
 * as a person all through a news page).
 */
const TAGGER_PRIOR = 10;
/** How many words each side of a span count as its context (6 fitted on the development fold among 3, 4, 6, 8, 12). */
const WINDOW = 6;
/** Present in every model that has a span typer (older models type by the tagger alone). */
const BIAS = 'span|b';

export function spanFeatures(ctx: SentenceContext, span: TokenSpan, gazetteer: Gazetteer, definition: readonly string[] = predicateWords(ctx, span.end)): string[] {
  const { start, end } = span;
  const lower = ctx.lower.slice(start, end);
  const at = (k: number) => ctx.lower[k] ?? (k < 0 ? '<s>' : '</s>');
  const first = lower[0]!;
  const last = lower[lower.length - 1]!;
  const features = [
    BIAS,
    `span|n=${Math.min(end - start, 5)}`,
    `span|s=${lower.join(' ')}`,
    `span|f=${first}`,
    `span|l=${last}`,
    `span|L=${ctx.words[end - 1]!}`,
    `span|l3=${last.slice(-3)}`,
    `span|l4=${last.slice(-4)}`,
    `span|sh=${ctx.shapes.slice(start, end).join(' ')}`,
    `span|b1=${at(start - 1)}`,
    `span|b2=${at(start - 2)}|${at(start - 1)}`,
    `span|a1=${at(end)}`,
    `span|a2=${at(end)}|${at(end + 1)}`,
    `span|b1a1=${at(start - 1)}|${at(end)}`,
  ];
  for (const word of lower) features.push(`span|w=${word}`);
  // The words around the span, in no order: "the village of X", "X, a band from", "signed for X".
  for (let k = Math.max(0, start - WINDOW); k < start; k++) if (/\p{L}/u.test(ctx.lower[k]!)) features.push(`span|bw=${ctx.lower[k]!}`, `span|bc=${ctx.marks[k]!.cluster?.fine}`);
  for (let k = end; k < Math.min(ctx.words.length, end + WINDOW); k++) if (/\p{L}/u.test(ctx.lower[k]!)) features.push(`span|aw=${ctx.lower[k]!}`, `span|ac=${ctx.marks[k]!.cluster?.fine}`);
  for (const word of definition) features.push(`span|isa=${word}`);
  if (start === 0) features.push('span|first');
  if (gazetteer.isPlace(ctx.words.slice(start, end))) features.push('span|place');
  markFeatures('span|gf', ctx.marks[start], features);
  markFeatures('span|gl', ctx.marks[end - 1], features);
  markFeatures('span|gb1', ctx.marks[start - 1], features);
  markFeatures('span|ga1', ctx.marks[end], features);
  for (let i = start; i < end; i++) {
    markFeatures('span|g', ctx.marks[i], features);
    if (ctx.marks[i]!.common) features.push('span|gcommon');
  }
  if (ctx.words.slice(start, end).some((word) => ctx.doc.seenLowerCase.has(word.toLowerCase()))) features.push('span|doc-lower');
  return features;
}

export function hasSpanTyper(model: Perceptron): boolean {
  return model.weights.has(BIAS);
}

/**
 * Retypes the spans of one document: each distinct string gets the type its
 * mentions' summed scores prefer.
 */
export function retypeSpans(model: Perceptron, contexts: readonly SentenceContext[], spans: readonly TokenSpan[][], gazetteer: Gazetteer): TokenSpan[][] {
  const totals = new Map<string, Float64Array>();
  const keyOf = (s: number, span: TokenSpan) => spanText(contexts[s]!, span);
  const mentions = spans.flatMap((sentenceSpans, s) => sentenceSpans.map((span) => ({ ctx: contexts[s]!, span })));
  const { words: defined, kinds } = readDefinitions(mentions);
  spans.forEach((sentenceSpans, s) => {
    for (const span of sentenceSpans) {
      const key = keyOf(s, span);
      const scores = model.scores(spanFeatures(contexts[s]!, span, gazetteer, defined.get(key) ?? []));
      scores[TAGS.indexOf(`B-${span.type}`)]! += TAGGER_PRIOR;
      const total = totals.get(key) ?? new Float64Array(scores.length);
      scores.forEach((value, t) => (total[t]! += value));
      totals.set(key, total);
    }
  });
  const best = (total: Float64Array) => TYPE_TAG.reduce((a, b) => (total[b]! > total[a]! ? b : a));
  // A definition whose head noun names a kind ("is a village", ", a stationery company") settles the type over the scores.
  const typeOf = (key: string) => kinds.get(key) ?? TYPES[TYPE_TAG.indexOf(best(totals.get(key)!))]!;
  return spans.map((sentenceSpans, s) => sentenceSpans.map((span) => ({ ...span, type: typeOf(keyOf(s, span)) })));
}

/** Learns the span typer from the gold spans of the training documents. */
export function trainSpanTyper(documents: readonly LabelledSentence[][], gazetteer: Gazetteer, options: { epochs: number; seed: number }): Perceptron {
  const model = new Perceptron();
  const next = seededRandom(options.seed);
  const examples: Array<{ features: string[]; truth: number }> = [];
  for (const sentences of documents) {
    const doc = documentStats(sentences.map((s) => s.words));
    const mentions = sentences.flatMap((sentence) => {
      const ctx = sentenceContext(sentence.words, gazetteer, doc);
      return tagsToSpans(sentence.tags).map((span) => ({ ctx, span }));
    });
    const defined = readDefinitions(mentions).words;
    for (const { ctx, span } of mentions) examples.push({ features: spanFeatures(ctx, span, gazetteer, defined.get(spanText(ctx, span)) ?? []), truth: TAGS.indexOf(`B-${span.type}`) });
  }
  for (let epoch = 0; epoch < options.epochs; epoch++) {
    shuffleInPlace(examples, next);
    for (const { features, truth } of examples) model.update(truth, model.predict(features, isTypeTag), features);
  }
  model.average();
  return model;
}
