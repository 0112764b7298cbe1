/**
 * Relevance of a passage to a query as a calibrated probability in 0..1,
 * comparable across queries and answers (docs/agent.md, "Scores").
 *
 * Every feature is absolute, never rescaled within one answer:
 *
 *   coverage  share of the query's distinct content terms (stemmed, stop words
 *             out) that occur in the passage
 *   weighted  the same share with each term weighted by its rarity among the
 *             passages scored together, ln(1 + N / (1 + passages holding it)):
 *             a term every page repeats (the subject) counts less than the
 *             one that picks the answer out
 *   bigrams   share of the query's adjacent content-term pairs that occur
 *             adjacent in the passage (stop words skipped on both sides)
 *   title     share of the query's content terms in the page title
 *   semantic  cosine of query and passage embeddings, centred and rescaled by
 *             the model's floor (calibration.ts), 0..1
 *
 *   score = σ(w0 + w1·coverage + w2·weighted + w3·bigrams + w4·title + w5·semantic)
 *
 * The weights are a logistic regression fitted on question → gold passage
 * pairs against hard and random negatives (`npm run bench:rag -- --fit`,
 * bench/rag/calibration.ts), with the classes balanced: the score is the
 * probability a passage holds the answer if holding it or not were equally
 * common among candidates, so 0.5 is where the evidence favours neither side.
 * On held-out questions, passages scored 0.4–0.6 held the answer 53% of the
 * time (balanced), 0.6–0.8: 66%, 0.8–1: 87%; AUC 0.825. The title weight is 0:
 * the fitting data has no page titles. Without an embedding model the
 * lexical-only fit is used.
 */
import { cosine, type Embedder } from '../embeddings/types.js';
import { calibrated, calibration, embedCentred } from './calibration.js';
import { contentTokens, isStopWord, tokenize } from './tokens.js';
import { roundScore as round } from '../../core/rounding.js';

export interface PassageFeatures {
  coverage: number;
  weighted: number;
  bigrams: number;
  title: number;
  /** Null when no embedding model was used. */
  semantic: number | null;
}

export interface PassageRelevance extends PassageFeatures {
  /** Calibrated probability that the passage answers the query, 0..1. */
  score: number;
}

export interface LogisticWeights {
  intercept: number;
  coverage: number;
  weighted: number;
  bigrams: number;
  title: number;
  semantic: number;
}

/**
 * Fitted by bench/rag/calibration.ts on Chroma's chunking evaluation (472 questions, 657 gold and
 * 9,190 negative passages of 120 tokens, the embedded offline model quarry/glove-static-100d).
 */
export const PASSAGE_WEIGHTS: LogisticWeights = {
  intercept: -2.56,
  coverage: 1.37,
  weighted: 2.87,
  bigrams: 0.55,
  title: 0,
  semantic: 1.72,
};
export const LEXICAL_PASSAGE_WEIGHTS: LogisticWeights = {
  intercept: -1.69,
  coverage: 1.85,
  weighted: 2.97,
  bigrams: 0.53,
  title: 0,
  semantic: 0,
};

/** Passages scored with embeddings at most per call (longer lists are scored in slices). */
const EMBED_SLICE = 512;

export interface QueryTerms {
  terms: string[];
  pairs: string[];
}

/** Distinct content terms of a query and its adjacent content-term pairs. */
export function queryTerms(query: string): QueryTerms {
  const all = tokenize(query);
  const content = all.filter((t) => !isStopWord(t));
  const used = content.length > 0 ? content : all;
  const pairs: string[] = [];
  for (let i = 1; i < used.length; i++) pairs.push(`${used[i - 1]} ${used[i]}`);
  return { terms: [...new Set(used)], pairs: [...new Set(pairs)] };
}

type LexicalFeatures = Omit<PassageFeatures, 'semantic' | 'weighted'> & { present: boolean[] };

function lexicalFeatures(terms: QueryTerms, text: string, title = ''): LexicalFeatures {
  if (terms.terms.length === 0) return { coverage: 1, bigrams: 1, title: 1, present: [] };
  const tokens = contentTokens(text);
  const present = new Set(tokens);
  const adjacent = new Set<string>();
  for (let i = 1; i < tokens.length; i++) adjacent.add(`${tokens[i - 1]} ${tokens[i]}`);
  const inTitle = new Set(contentTokens(title));
  const share = (items: string[], set: Set<string>) =>
    items.length === 0 ? 0 : items.filter((item) => set.has(item)).length / items.length;
  return {
    coverage: share(terms.terms, present),
    bigrams: terms.pairs.length === 0 ? share(terms.terms, present) : share(terms.pairs, adjacent),
    title: share(terms.terms, inTitle),
    present: terms.terms.map((term) => present.has(term)),
  };
}

/** Rarity-weighted coverage of every passage, the weights taken from the passages themselves. */
function weightedCoverage(lexical: LexicalFeatures[]): number[] {
  const terms = lexical[0]?.present.length ?? 0;
  if (terms === 0) return lexical.map(() => 1);
  const holding = new Array<number>(terms).fill(0);
  for (const features of lexical) features.present.forEach((has, t) => (holding[t]! += has ? 1 : 0));
  const weights = holding.map((n) => Math.log(1 + lexical.length / (1 + n)));
  const total = weights.reduce((a, b) => a + b, 0);
  return lexical.map((features) =>
    total === 0
      ? features.coverage
      : features.present.reduce((sum, has, t) => sum + (has ? weights[t]! : 0), 0) / total,
  );
}

export function probability(features: PassageFeatures, weights?: LogisticWeights): number {
  const w = weights ?? (features.semantic === null ? LEXICAL_PASSAGE_WEIGHTS : PASSAGE_WEIGHTS);
  const z =
    w.intercept +
    w.coverage * features.coverage +
    w.weighted * features.weighted +
    w.bigrams * features.bigrams +
    w.title * features.title +
    w.semantic * (features.semantic ?? 0);
  return round(1 / (1 + Math.exp(-z)));
}

export interface PassageToScore {
  text: string;
  /** Title of the page the passage comes from. */
  title?: string;
}

/**
 * Centred passage vectors kept across calls, so scoring the same pages for several questions
 * (research sub-questions) embeds each passage once. Keyed by text; bounded by its owner's life.
 */
export type PassageVectorCache = Map<string, Float32Array>;

/**
 * The features of passages against one query (the rarity weights come from these passages),
 * in one embedding call per slice. With `embedder` null, or when embedding fails for any reason
 * but cancellation, `semantic` is null.
 */
export async function passageFeatures(
  query: string,
  passages: PassageToScore[],
  embedder: Embedder | null,
  signal?: AbortSignal,
  cache?: PassageVectorCache,
): Promise<PassageFeatures[]> {
  if (passages.length === 0) return [];
  const terms = queryTerms(query);
  const lexical = passages.map((p) => lexicalFeatures(terms, p.text, p.title));
  const weighted = weightedCoverage(lexical);
  let semantic: Array<number | null> = passages.map(() => null);
  if (embedder) {
    try {
      semantic = await semanticFeatures(query, passages, embedder, signal, cache);
    } catch (error) {
      // Words alone still rank; a cancelled call must stop, though.
      if (signal?.aborted) throw error;
    }
  }
  return lexical.map(({ present: _present, ...features }, i) => ({
    coverage: round(features.coverage),
    weighted: round(weighted[i]!),
    bigrams: round(features.bigrams),
    title: round(features.title),
    semantic: semantic[i] === null || semantic[i] === undefined ? null : round(semantic[i]!),
  }));
}

/** Scores passages against one query: their features, then the fitted probability. */
export async function scorePassages(
  query: string,
  passages: PassageToScore[],
  embedder: Embedder | null,
  signal?: AbortSignal,
  cache?: PassageVectorCache,
): Promise<PassageRelevance[]> {
  const features = await passageFeatures(query, passages, embedder, signal, cache);
  return features.map((f) => ({ ...f, score: probability(f) }));
}

async function semanticFeatures(
  query: string,
  passages: PassageToScore[],
  embedder: Embedder,
  signal?: AbortSignal,
  cache: PassageVectorCache = new Map(),
): Promise<number[]> {
  const missing = [...new Set(passages.map((p) => p.text).filter((text) => !cache.has(text)))];
  let floor = (await calibration(embedder)).floor;
  let queryVector: Float32Array | null = null;
  for (let start = 0; start < missing.length || queryVector === null; start += EMBED_SLICE) {
    const slice = missing.slice(start, start + EMBED_SLICE);
    const texts = queryVector === null ? [query, ...slice] : slice;
    const embedded = await embedCentred(embedder, texts, signal);
    floor = embedded.floor;
    const vectors = queryVector === null ? embedded.vectors.slice(1) : embedded.vectors;
    queryVector ??= embedded.vectors[0]!;
    slice.forEach((text, i) => cache.set(text, vectors[i]!));
  }
  return passages.map((p) => calibrated(cosine(queryVector!, cache.get(p.text)!), floor));
}
