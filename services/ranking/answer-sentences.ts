/**
 * How well each sentence answers a question, 0..1: the one function that ranks
 * sentences for cited answers (services/answers/extractive.ts), kept behind
 * one signature so a trained model (a cross-encoder) can replace it.
 *
 *   relevance  the calibrated passage relevance of the sentence (passage-relevance.ts:
 *              term coverage, rarity, bigrams, meaning when an embedder is given)
 *   coverage   the question's terms in the sentence, weighted by how well they pick
 *              one page out (term-weights.ts, the focus term counting twice)
 *   context    the same share in the sentence's passage: a sentence about "it"
 *              in a paragraph about the subject still answers
 *   shape      the answer shape the question asks for (question-shape.ts)
 *
 *   score = 0.35·relevance + 0.35·coverage + 0.15·context + 0.15·shape
 *
 * then halved for a sentence that only repeats the question: one ending in a
 * question mark, or with fewer than a third of its content words new. With a
 * configured cross-encoder (models.reranker) the model orders the best
 * sentences: they take the same scores in the model's order (reranker.ts).
 */
import type { Embedder } from '../embeddings/types.js';
import { scorePassages } from './passage-relevance.js';
import { rerankScores, type PassageReranker } from './reranker.js';
import type { QuestionFocus } from './question-focus.js';
import { shapeMatch } from './question-shape.js';
import { weightedShare } from './term-weights.js';
import { contentTerms } from './tokens.js';
import { roundScore as round } from '../../core/rounding.js';

export interface SentenceToScore {
  text: string;
  /** Title of its page. */
  title: string;
  /** The passage it comes from. */
  context: string;
}

export interface AnswerScoringOptions {
  embedder: Embedder | null;
  /** A configured cross-encoder: it orders the best sentences (their scores keep their scale; reranker.ts). */
  reranker?: PassageReranker | null;
  signal?: AbortSignal;
}

export const ANSWER_WEIGHTS = { relevance: 0.35, coverage: 0.35, context: 0.15, shape: 0.15 } as const;
const NEW_WORDS_MIN = 1 / 3;
const REPEAT_FACTOR = 0.5;

/** Whether a sentence merely repeats the question: a question itself, or little beyond its words. */
export function repeatsQuestion(questionTerms: ReadonlySet<string>, sentence: string): boolean {
  if (/\?\s*["”')]?$/.test(sentence.trim())) return true;
  const words = contentTerms(sentence);
  if (words.length === 0) return true;
  return words.filter((w) => !questionTerms.has(w)).length / words.length < NEW_WORDS_MIN;
}

export async function scoreAnswerSentences(
  focus: QuestionFocus,
  sentences: readonly SentenceToScore[],
  options: AnswerScoringOptions,
): Promise<number[]> {
  if (sentences.length === 0) return [];
  const { question, weights, shape } = focus;
  const relevance = await scorePassages(
    question,
    sentences.map((s) => ({ text: s.text, title: s.title })),
    options.embedder,
    options.signal,
  );
  const scores = sentences.map((sentence, i) => {
    const score =
      ANSWER_WEIGHTS.relevance * relevance[i]!.score +
      ANSWER_WEIGHTS.coverage * weightedShare(weights, sentence.text) +
      ANSWER_WEIGHTS.context * weightedShare(weights, sentence.context) +
      ANSWER_WEIGHTS.shape * shapeMatch(shape, question, sentence.text);
    return round(repeatsQuestion(focus.terms, sentence.text) ? score * REPEAT_FACTOR : score);
  });
  if (!options.reranker) return scores;
  return rerankScores(
    question,
    sentences.map((s) => s.text),
    scores,
    options.reranker,
    options.signal,
  );
}
