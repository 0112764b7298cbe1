/**
 * Extractive answers, for when no language model is configured (or it
 * failed): sentences quoted from the read pages, ranked for the question,
 * deduplicated, each followed by its citation [n].
 *
 * 1. The best passages of all sources (already ranked, page-passages.ts) are
 *    pooled; if even the best scores below ANSWERED_MIN the answer is NO_ANSWER.
 * 2. Their sentences (5 to 60 words, no instructions aimed at an agent) are
 *    scored for the question (passage-relevance.ts) and blended with their
 *    passage's score: 0.6 × sentence + 0.4 × passage.
 * 3. The best are taken in order, skipping any whose words mostly repeat a
 *    sentence already taken (Jaccard of content words ≥ 0.6), down to SENTENCE_MIN.
 */
import type { Embedder } from '../embeddings/types.js';
import type { RankedPassage } from '../ranking/page-passages.js';
import { scorePassages } from '../ranking/passage-relevance.js';
import { sentences } from '../ranking/passages.js';
import { contentTokens } from '../ranking/tokens.js';
import { isAgentInstruction } from '../sources/safety.js';
import { NO_ANSWER, quoteSentence } from './citations.js';

/** Below this best-passage score the sources are taken not to answer the question. */
export const ANSWERED_MIN = 0.5;
/** Sentences blended below this are not quoted. */
export const SENTENCE_MIN = 0.35;
const POOLED_PASSAGES = 10;
const MIN_WORDS = 5;
const MAX_WORDS = 60;
const DUPLICATE_JACCARD = 0.6;

export interface AnswerSource {
  /** The citation number: 1-based position among the returned sources. */
  n: number;
  title: string;
  /** The page text the passages come from. */
  text: string;
  /** The page's passages ranked for the question, best first. */
  passages: RankedPassage[];
}

export interface QuotedSentence {
  text: string;
  citation: number;
  score: number;
}

export interface Answer {
  text: string;
  answered: boolean;
  sentences: QuotedSentence[];
}

export interface ExtractiveOptions {
  maxSentences: number;
  embedder: Embedder | null;
  signal?: AbortSignal;
}

function contentWords(text: string): Set<string> {
  return new Set(contentTokens(text));
}

export function jaccard(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let shared = 0;
  for (const item of a) if (b.has(item)) shared++;
  return shared / (a.size + b.size - shared);
}

/** Candidate sentences of the best passages, each with its passage's score and citation. */
function candidateSentences(sources: AnswerSource[]): Array<{ text: string; citation: number; passageScore: number; title: string }> {
  const pooled = sources
    .flatMap((source) => source.passages.map((passage) => ({ source, passage })))
    .sort((a, b) => b.passage.relevance.score - a.passage.relevance.score)
    .slice(0, POOLED_PASSAGES);
  const out: Array<{ text: string; citation: number; passageScore: number; title: string }> = [];
  for (const { source, passage } of pooled) {
    for (const sentence of sentences(passage.text)) {
      const quoted = quoteSentence(sentence.text);
      const words = quoted.split(' ').length;
      if (words < MIN_WORDS || words > MAX_WORDS || isAgentInstruction(quoted) || !/[.!?…"”')]$/.test(quoted)) continue;
      out.push({ text: quoted, citation: source.n, passageScore: passage.relevance.score, title: source.title });
    }
  }
  return out;
}

export async function extractiveAnswer(query: string, sources: AnswerSource[], options: ExtractiveOptions): Promise<Answer> {
  const best = Math.max(0, ...sources.flatMap((s) => s.passages.map((p) => p.relevance.score)));
  if (best < ANSWERED_MIN) return { text: NO_ANSWER, answered: false, sentences: [] };
  const candidates = candidateSentences(sources);
  const scores = await scorePassages(query, candidates.map((c) => ({ text: c.text, title: c.title })), options.embedder, options.signal);
  const ranked = candidates
    .map((c, i) => ({ ...c, score: Math.round((0.6 * scores[i]!.score + 0.4 * c.passageScore) * 10_000) / 10_000 }))
    .sort((a, b) => b.score - a.score);
  const chosen: Array<QuotedSentence & { words: Set<string> }> = [];
  for (const candidate of ranked) {
    if (chosen.length >= options.maxSentences || candidate.score < SENTENCE_MIN) break;
    const words = contentWords(candidate.text);
    if (chosen.some((c) => c.text === candidate.text || jaccard(c.words, words) >= DUPLICATE_JACCARD)) continue;
    chosen.push({ text: candidate.text, citation: candidate.citation, score: candidate.score, words });
  }
  if (chosen.length === 0) return { text: NO_ANSWER, answered: false, sentences: [] };
  const quoted = chosen.map(({ words: _words, ...sentence }) => sentence);
  return { text: renderQuotes(quoted), answered: true, sentences: quoted };
}

export function renderQuotes(quoted: Array<{ text: string; citation: number }>): string {
  return quoted.map((s) => `${s.text} [${s.citation}]`).join(' ');
}
