/**
 * Relevance by meaning blended with words (docs/neural.md).
 *
 *   cosine   = 0.75 × cos(query, document) + 0.25 × cos(query, best passage)
 *              (document = unit mean of its passage vectors, title and snippet
 *              counting as one passage, so one relevant section still counts)
 *   meaning  = the cosine rescaled across the candidates of one answer, so the
 *              least similar is 0 and the most similar 1 (raw cosines of
 *              different models live on different scales: a static word-vector
 *              model puts any two English texts near 0.8)
 *   lexical  = lexicalRelevance (services/web-search/relevance.ts), 0..1
 *   score    = 0.75 × meaning + 0.25 × lexical
 *
 * Vectors are centred first (calibration.ts). semantic_score reports the
 * cosine calibrated by the model's floor, comparable across answers of one model.
 */
import { cosine, type Embedder } from '../embeddings/types.js';
import { lexicalRelevance } from './relevance.js';
import { calibrated, embedCentred } from './calibration.js';
import { cutPassages } from './passages.js';
import { roundScore as round } from '../../core/rounding.js';

/** Re-exported for callers that import the score rounding from ranking. */
export { round };

export const SEMANTIC_WEIGHT = 0.75;
export const LEXICAL_WEIGHT = 0.25;
const DOC_WEIGHT = 0.75;
const PASSAGE_WORDS = 80;
const MAX_PASSAGES_PER_DOC = 16;

export interface ScorableDoc {
  title: string;
  snippet: string;
  text?: string;
}

export interface DocScore {
  /** Calibrated cosine, 0..1. */
  semantic: number;
  lexical: number;
  score: number;
  /** Unit mean of the document's passage vectors (for similarity between documents). */
  vector: Float32Array;
}

export function blend(meaning: number, lexical: number): number {
  return round(SEMANTIC_WEIGHT * meaning + LEXICAL_WEIGHT * lexical);
}

/** Rescales values so the smallest is 0 and the largest 1 (all 1 when they are equal). */
export function spread(values: number[]): number[] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const value of values) {
    lo = Math.min(lo, value);
    hi = Math.max(hi, value);
  }
  return values.map((v) => (hi - lo < 1e-9 ? 1 : (v - lo) / (hi - lo)));
}

export async function docPassages(doc: ScorableDoc): Promise<string[]> {
  const head = `${doc.title}\n${doc.snippet}`.trim();
  const body = (
    await cutPassages(doc.text ?? '', { by: 'words', words: PASSAGE_WORDS }, { limit: MAX_PASSAGES_PER_DOC * 6 })
  ).map((p) => p.text);
  return [head, ...body].filter((p) => p.length > 0).slice(0, MAX_PASSAGES_PER_DOC);
}

export function meanVector(vectors: Float32Array[], dimensions: number): Float32Array {
  const mean = new Float32Array(dimensions);
  for (const v of vectors) for (let i = 0; i < dimensions; i++) mean[i]! += v[i]!;
  let norm = 0;
  for (let i = 0; i < dimensions; i++) norm += mean[i]! * mean[i]!;
  norm = Math.sqrt(norm);
  if (norm > 0) for (let i = 0; i < dimensions; i++) mean[i]! /= norm;
  return mean;
}

/** Scores every document against the query in one embedding call. */
export async function scoreDocuments(
  query: string,
  docs: ScorableDoc[],
  embedder: Embedder,
  signal?: AbortSignal,
): Promise<DocScore[]> {
  if (docs.length === 0) return [];
  const passages = await Promise.all(docs.map(docPassages));
  const { vectors, floor } = await embedCentred(embedder, [query, ...passages.flat()], signal);
  const queryVector = vectors[0]!;
  const dimensions = queryVector.length;
  let offset = 1;
  const raw = docs.map((doc, i) => {
    const own = vectors.slice(offset, offset + passages[i]!.length);
    offset += passages[i]!.length;
    const vector = meanVector(own, dimensions);
    const best = own.reduce((max, v) => Math.max(max, cosine(queryVector, v)), -1);
    const cos = own.length > 0 ? DOC_WEIGHT * cosine(queryVector, vector) + (1 - DOC_WEIGHT) * best : 0;
    return { cos, lexical: lexicalRelevance(query, doc), vector };
  });
  const meaning = spread(raw.map((r) => r.cos));
  return raw.map((r, i) => ({
    semantic: round(calibrated(r.cos, floor)),
    lexical: round(r.lexical),
    score: blend(meaning[i]!, r.lexical),
    vector: r.vector,
  }));
}
