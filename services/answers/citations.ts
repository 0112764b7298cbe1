/**
 * Numbered citations and their checker (docs/agent.md, "Answers").
 *
 * A citation is "[n]" with n the 1-based position of a returned source. An
 * extractive answer is a run of "<sentence> [n]" pieces, each sentence quoted
 * from the page of source n; `checkAnswer` verifies that every [n] indexes a
 * source that was read and, for extractive answers, that every sentence occurs
 * in that page verbatim — comparing with whitespace runs as one space and the
 * page's own numeric reference marks ("[12]", as Wikipedia has) left out, the
 * same two liberties quoteSentence takes.
 */

import { unescapeMarkdownText } from '../markdown/escape.js';

/** What an answer says when its sources do not answer the question (no citation follows it). */
export const NO_ANSWER = 'The sources found do not answer this question.';

const CITATION = /\[(\d{1,3})\]/g;
const REFERENCE_MARK = /\[\d{1,3}\]/g;

export function normalizeQuoted(text: string): string {
  return text.replace(REFERENCE_MARK, '').replace(/\s+/g, ' ').trim();
}

/** A sentence of a page as an answer quotes it: whitespace collapsed, reference marks removed. */
export function quoteSentence(sentence: string): string {
  return normalizeQuoted(sentence);
}

/** Every citation number in the text, in order of appearance. */
export function citationNumbers(text: string): number[] {
  return [...text.matchAll(CITATION)].map((m) => Number(m[1]));
}

/** Removes citations whose number is not in `allowed`; returns the text and what was removed. */
export function keepCitations(text: string, allowed: Set<number>): { text: string; removed: number[] } {
  const removed: number[] = [];
  const kept = text.replace(/\s?\[(\d{1,3})\]/g, (whole, n: string) => {
    if (allowed.has(Number(n))) return whole;
    removed.push(Number(n));
    return '';
  });
  return { text: kept, removed };
}

export interface CitedSource {
  /** The page text the answer may quote; empty when the source was not read. */
  text: string;
}

export interface QuotedPiece {
  sentence: string;
  citation: number;
}

/** Splits an extractive answer into its "<sentence> [n]" pieces; null when the text is not of that form. */
export function extractivePieces(answer: string): QuotedPiece[] | null {
  const pieces: QuotedPiece[] = [];
  let rest = answer.trim();
  while (rest.length > 0) {
    const match = /^(.+?)\s\[(\d{1,3})\](?:\s+|$)/s.exec(rest);
    if (!match) return null;
    pieces.push({ sentence: match[1]!.trim(), citation: Number(match[2]) });
    rest = rest.slice(match[0].length);
  }
  return pieces;
}

/**
 * Problems with an answer against the sources it was returned with (`sources[n - 1]` is source n).
 * Empty means: every [n] indexes a source that was read, and (extractive) every sentence is in
 * the cited page.
 */
export function checkAnswer(answer: string, sources: CitedSource[], options: { extractive: boolean }): string[] {
  const problems: string[] = [];
  if (answer.trim() === NO_ANSWER) return problems;
  for (const n of citationNumbers(answer)) {
    if (n < 1 || n > sources.length) problems.push(`[${n}] indexes no returned source (there are ${sources.length})`);
    else if (!sources[n - 1]!.text.trim()) problems.push(`[${n}] cites a source that was not read`);
  }
  if (!options.extractive) return problems;
  const pieces = extractivePieces(answer);
  if (!pieces) return [...problems, 'the extractive answer is not a run of "<sentence> [n]" pieces'];
  const pages = new Map<number, string>();
  for (const { sentence, citation } of pieces) {
    const source = sources[citation - 1];
    if (!source?.text) continue; // reported above
    if (!pages.has(citation)) pages.set(citation, normalizeQuoted(source.text));
    // The answer is markdown (the sentence escaped); the page is compared as the text it was.
    if (!pages.get(citation)!.includes(normalizeQuoted(unescapeMarkdownText(sentence))))
      problems.push(`"${sentence.slice(0, 80)}" is not in the page of [${citation}]`);
  }
  return problems;
}
