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

/**
 * What the tagger's first pass said of a span and of the other mentions of its string in the document (the stacking
 * features).
 */
export interface FirstPass {
  /** The tagger's type of this very span, or null when the tagger did not find it (a gold span in training). */
  type: SpanType | null;
  /** The types the tagger gave the other mentions of the same string in the document, most frequent first. */
  others: readonly SpanType[];
}

export function spanFeatures(
  ctx: SentenceContext,
  span: TokenSpan,
  gazetteer: Gazetteer,
  definition: readonly string[] = predicateWords(ctx, span.end),
  firstPass?: FirstPass,
): string[] {
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
  for (let k = Math.max(0, start - WINDOW); k < start; k++)
    if (/\p{L}/u.test(ctx.lower[k]!))
      features.push(`span|bw=${ctx.lower[k]!}`, `span|bc=${ctx.marks[k]!.cluster?.fine}`);
  for (let k = end; k < Math.min(ctx.words.length, end + WINDOW); k++)
    if (/\p{L}/u.test(ctx.lower[k]!))
      features.push(`span|aw=${ctx.lower[k]!}`, `span|ac=${ctx.marks[k]!.cluster?.fine}`);
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
  if (ctx.words.slice(start, end).some((word) => ctx.doc.seenLowerCase.has(word.toLowerCase())))
    features.push('span|doc-lower');
  if (firstPass) {
    features.push(
      `span|tt=${firstPass.type ?? 'none'}`,
      `span|to=${firstPass.others[0] ?? 'none'}`,
      `span|tt|to=${firstPass.type ?? 'none'}|${firstPass.others[0] ?? 'none'}`,
    );
    for (const type of new Set(firstPass.others)) features.push(`span|tany=${type}`);
  }
  return features;
}

export function hasSpanTyper(model: Perceptron): boolean {
  return model.weights.has(BIAS);
}

/**
 * Present in a typer trained on the tagger's out-of-fold spans: it reads the first pass and may drop a span (its `O`
 * class).
 */
const STACKED = 'span|stacked';

function isStackedTyper(model: Perceptron): boolean {
  return model.weights.has(STACKED);
}

/** The first pass of each span of a document: its own type and the types of the other mentions of its string. */
function firstPasses(
  contexts: readonly SentenceContext[],
  spans: readonly TokenSpan[][],
  of: readonly TokenSpan[][] = spans,
): FirstPass[][] {
  const byString = new Map<string, Array<{ s: number; span: TokenSpan }>>();
  spans.forEach((sentenceSpans, s) => {
    for (const span of sentenceSpans) {
      const key = spanText(contexts[s]!, span);
      const list = byString.get(key) ?? [];
      list.push({ s, span });
      byString.set(key, list);
    }
  });
  return of.map((sentenceSpans, s) =>
    sentenceSpans.map((span) => {
      const mentions = byString.get(spanText(contexts[s]!, span)) ?? [];
      const own = mentions.find((m) => m.s === s && m.span.start === span.start && m.span.end === span.end);
      const counts = new Map<SpanType, number>();
      for (const m of mentions) if (m !== own) counts.set(m.span.type, (counts.get(m.span.type) ?? 0) + 1);
      return { type: own?.span.type ?? null, others: [...counts].sort((a, b) => b[1] - a[1]).map(([type]) => type) };
    }),
  );
}

/**
 * Retypes the spans of one document: each distinct string gets the type its
 * mentions' summed scores prefer; a stacked typer may say a string is no
 * name at all, and its spans go.
 */
export function retypeSpans(
  model: Perceptron,
  contexts: readonly SentenceContext[],
  spans: readonly TokenSpan[][],
  gazetteer: Gazetteer,
): TokenSpan[][] {
  const totals = new Map<string, Float64Array>();
  const keyOf = (s: number, span: TokenSpan) => spanText(contexts[s]!, span);
  const mentions = spans.flatMap((sentenceSpans, s) => sentenceSpans.map((span) => ({ ctx: contexts[s]!, span })));
  const { words: defined, kinds } = readDefinitions(mentions);
  const stacked = isStackedTyper(model);
  const passes = stacked ? firstPasses(contexts, spans) : null;
  spans.forEach((sentenceSpans, s) => {
    sentenceSpans.forEach((span, k) => {
      const key = keyOf(s, span);
      const scores = model.scores(
        spanFeatures(contexts[s]!, span, gazetteer, defined.get(key) ?? [], passes?.[s]?.[k]),
      );
      scores[TAGS.indexOf(`B-${span.type}`)]! += TAGGER_PRIOR;
      const total = totals.get(key) ?? new Float64Array(scores.length);
      scores.forEach((value, t) => (total[t]! += value));
      totals.set(key, total);
    });
  });
  const classes = stacked ? [0, ...TYPE_TAG] : TYPE_TAG;
  const best = (total: Float64Array) => classes.reduce((a, b) => (total[b]! > total[a]! ? b : a));
  // A definition whose head noun names a kind ("is a village", ", a stationery company") settles the type over the
  // scores.
  const typeOf = (key: string): SpanType | null => {
    const kind = kinds.get(key);
    if (kind) return kind;
    const tag = best(totals.get(key)!);
    return tag === 0 ? null : TYPES[TYPE_TAG.indexOf(tag)]!;
  };
  return spans.map((sentenceSpans, s) =>
    sentenceSpans.flatMap((span) => {
      const type = typeOf(keyOf(s, span));
      return type ? [{ ...span, type }] : [];
    }),
  );
}

export interface SpanTyperTraining {
  epochs: number;
  seed: number;
  /**
   * The tagger's spans of each training document, from a tagger that did not
   * train on it (out of fold): with them the typer is stacked — it reads the
   * first pass's types as features and learns from the tagger's spurious
   * spans to drop them.
   */
  firstPass?: ReadonlyMap<readonly LabelledSentence[], TokenSpan[][]>;
}

/**
 * Learns the span typer from the gold spans of the training documents (and, stacked, from the tagger's out-of-fold
 * spans).
 */
export function trainSpanTyper(
  documents: readonly LabelledSentence[][],
  gazetteer: Gazetteer,
  options: SpanTyperTraining,
): Perceptron {
  const model = new Perceptron();
  const next = seededRandom(options.seed);
  const examples: Array<{ features: string[]; truth: number }> = [];
  const seen = new Set<readonly LabelledSentence[]>();
  for (const sentences of documents) {
    const doc = documentStats(sentences.map((s) => s.words));
    const contexts = sentences.map((sentence) => sentenceContext(sentence.words, gazetteer, doc));
    const gold = sentences.map((sentence) => tagsToSpans(sentence.tags));
    const predicted = options.firstPass?.get(sentences);
    const passes = predicted ? firstPasses(contexts, predicted, gold) : null;
    const mentions = gold.flatMap((spans, s) => spans.map((span) => ({ ctx: contexts[s]!, span })));
    const defined = readDefinitions(mentions).words;
    gold.forEach((spans, s) =>
      spans.forEach((span, k) =>
        examples.push({
          features: spanFeatures(
            contexts[s]!,
            span,
            gazetteer,
            defined.get(spanText(contexts[s]!, span)) ?? [],
            passes?.[s]?.[k],
          ),
          truth: TAGS.indexOf(`B-${span.type}`),
        }),
      ),
    );
    // The tagger's spans that are no gold name (once per document, not per copy): what a stacked typer learns to drop.
    if (!predicted || seen.has(sentences)) continue;
    seen.add(sentences);
    const own = firstPasses(contexts, predicted);
    predicted.forEach((spans, s) =>
      spans.forEach((span, k) => {
        const overlapping = gold[s]!.filter((g) => g.start < span.end && span.start < g.end);
        if (overlapping.some((g) => g.start === span.start && g.end === span.end)) return;
        // No gold name there: "no name"; only a MISC name: MISC; a name of another type with other bounds: no example
        // (no type is right).
        const truth =
          overlapping.length === 0 ? 0 : overlapping.every((g) => g.type === 'MISC') ? TAGS.indexOf('B-MISC') : -1;
        if (truth >= 0)
          examples.push({ features: spanFeatures(contexts[s]!, span, gazetteer, undefined, own[s]![k]), truth });
      }),
    );
  }
  const allowed = options.firstPass ? (tag: number) => tag === 0 || isTypeTag(tag) : isTypeTag;
  for (let epoch = 0; epoch < options.epochs; epoch++) {
    shuffleInPlace(examples, next);
    for (const { features, truth } of examples) model.update(truth, model.predict(features, allowed), features);
  }
  model.average();
  if (options.firstPass)
    model.weights.set(
      STACKED,
      Float64Array.from(TAGS, (_, t) => (t === 0 ? 1 : 0)),
    );
  return model;
}
