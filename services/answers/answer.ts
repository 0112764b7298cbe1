/**
 * answerQuestion: the one entry point for a cited answer. With a language
 * model it is written from the sources' best passages (written.ts); without
 * one, or when the model fails or cites nothing usable, it is extractive
 * (extractive.ts). `model` says which: the model's name or "extractive".
 */
import type { Logger } from '../../core/logger.js';
import { toAppError } from '../../core/errors.js';
import type { Embedder } from '../embeddings/types.js';
import { EXTRACTIVE_MODEL } from '../llm/registry.js';
import type { LlmClient } from '../llm/types.js';
import type { PassageReranker } from '../ranking/reranker.js';
import { NO_ANSWER } from './citations.js';
import { extractiveAnswer, type AnswerSource } from './extractive.js';
import { writeAnswer, type AnswerLength } from './written.js';

export interface AnswerSourceWithUrl extends AnswerSource {
  url: string;
}

export interface CitedAnswer {
  text: string;
  answered: boolean;
  /** The model's name, or "extractive". */
  model: string;
  /** Why a configured model was not used for this answer. */
  fallbackReason?: string;
}

export interface AnswerOptions {
  llm: LlmClient | null;
  length: AnswerLength;
  embedder: Embedder | null;
  /** A configured cross-encoder orders the sentences an extractive answer quotes. */
  reranker?: PassageReranker | null;
  signal?: AbortSignal;
  logger?: Pick<Logger, 'warn'>;
  /** Passages per source shown to the model. */
  passagesPerSource?: number;
}

const SENTENCES: Record<AnswerLength, number> = { short: 3, long: 6 };

export async function answerQuestion(
  question: string,
  sources: AnswerSourceWithUrl[],
  options: AnswerOptions,
): Promise<CitedAnswer> {
  let fallbackReason: string | undefined;
  if (options.llm && sources.length > 0) {
    try {
      const written = await writeAnswer(
        options.llm,
        question,
        sources.map((s) => ({
          n: s.n,
          title: s.title,
          url: s.url,
          passages: s.passages.slice(0, options.passagesPerSource ?? 4).map((p) => p.text),
        })),
        { length: options.length, ...(options.signal ? { signal: options.signal } : {}) },
      );
      if (written) return { text: written.text, answered: written.text !== NO_ANSWER, model: written.model };
      fallbackReason = 'the model cited none of the sources';
    } catch (error) {
      if (options.signal?.aborted) throw error;
      fallbackReason = `the model failed: ${toAppError(error).message}`;
    }
    options.logger?.warn({ reason: fallbackReason }, 'answer: falling back to an extractive answer');
  }
  const extractive = await extractiveAnswer(question, sources, {
    maxSentences: SENTENCES[options.length],
    embedder: options.embedder,
    reranker: options.reranker ?? null,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  return {
    text: extractive.text,
    answered: extractive.answered,
    model: EXTRACTIVE_MODEL,
    ...(fallbackReason ? { fallbackReason } : {}),
  };
}
