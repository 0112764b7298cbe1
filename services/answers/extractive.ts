/**
 * Extractive answers, for when no language model is configured (or it
 * failed): sentences quoted from the read pages, ranked for how well they
 * answer the question, each followed by its citation [n] (docs/agent.md, "Answers").
 *
 * 0. If even the best passage of all sources scores below ANSWERED_MIN the
 *    answer is NO_ANSWER (no page is about the question).
 * 1. The sentences (5 to 60 words, no instructions aimed at an agent; a
 *    lower-cased run-on sentence cut into its sentences, ranking/run-on-sentences.ts)
 *    of each page's best passages are scored for how well they answer
 *    (ranking/answer-sentences.ts), blended 0.7 × that + 0.3 × their passage's score.
 * 2. Each page's evidence (answer-choice.ts: title and lead match, whole-page
 *    BM25, search position, best passage, best sentence, the share of the
 *    question's distinctive terms that sentence holds and of its words the
 *    question lacks) picks the page that leads, and a fitted confidence says
 *    whether it answers at all; when not, the answer is NO_ANSWER.
 * 3. The leading page's best sentence opens the answer; more sentences of the
 *    same page follow down to SAME_PAGE_SHARE of the first's score, none of
 *    another page. Sentences whose words mostly repeat one already taken
 *    (Jaccard ≥ 0.6) are skipped.
 */
import type { Embedder } from '../embeddings/types.js';
import type { RankedPassage } from '../ranking/page-passages.js';
import { scoreAnswerSentences } from '../ranking/answer-sentences.js';
import { pagePriorParts } from '../ranking/page-prior.js';
import { sentences } from '../ranking/passages.js';
import { questionFocus, type QuestionFocus } from '../ranking/question-focus.js';
import type { PassageReranker } from '../ranking/reranker.js';
import { splitRunOnSentences } from '../ranking/run-on-sentences.js';
import { weightedShare } from '../ranking/term-weights.js';
import { contentTerms, contentTokens } from '../ranking/tokens.js';
import { isAgentInstruction } from '../sources/safety.js';
import { escapeMarkdownText } from '../markdown/escape.js';
import {
  choosePage,
  novelty,
  shippedAnswerChoice,
  type AnswerChoiceModel,
  type PageEvidence,
} from './answer-choice.js';
import { NO_ANSWER, quoteSentence } from './citations.js';
import { roundScore as round } from '../../core/rounding.js';

/** Below this best-passage score the sources are taken not to answer the question (research's test too). */
export const ANSWERED_MIN = 0.5;
/** Whether any passage read scores ANSWERED_MIN: below it no page is about the question, whatever the model says. */
export function sourcesAnswerable(sources: readonly AnswerSource[]): boolean {
  return sources.some((s) => s.passages.some((p) => p.relevance.score >= ANSWERED_MIN));
}

/** Further sentences of the leading page are quoted down to this share of the first's score. */
export const SAME_PAGE_SHARE = 0.6;
/** Passages of each page whose sentences are candidates (a table-heavy page's answer is seldom in its first three). */
const PASSAGES_PER_SOURCE = 8;
const BLEND = { sentence: 0.7, passage: 0.3 };
const MIN_WORDS = 5;
const MAX_WORDS = 60;
const DUPLICATE_JACCARD = 0.6;
/** How far past a passage's end its last sentence is looked for. */
const COMPLETION_CHARS = 400;
const STATEMENT_END = /[.!…"”')]$/;

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
  /** A configured cross-encoder orders the best sentences (ranking/answer-sentences.ts). */
  reranker?: PassageReranker | null;
  signal?: AbortSignal;
  /** The page-choice and answering model; the shipped one by default (answer-choice.ts). */
  choice?: AnswerChoiceModel;
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

interface Candidate {
  text: string;
  citation: number;
  title: string;
  /** The passage it comes from. */
  context: string;
  passageScore: number;
}

/** Quotable: 5 to 60 words, a statement (a question never answers one), no instruction aimed at an agent. */
function quotable(sentence: string): boolean {
  const words = sentence.split(' ').length;
  return words >= MIN_WORDS && words <= MAX_WORDS && STATEMENT_END.test(sentence) && !isAgentInstruction(sentence);
}

/**
 * A passage's last sentence as the page has it: the passage cutter may end a
 * passage mid-sentence (a token budget), and the rest of the sentence is in
 * the page right after it.
 */
function wholeSentence(pageText: string, sentence: string, isLast: boolean): string {
  if (!isLast || STATEMENT_END.test(sentence)) return sentence;
  const at = pageText.indexOf(sentence);
  if (at < 0) return sentence;
  return sentences(pageText.slice(at, at + sentence.length + COMPLETION_CHARS))[0]?.text ?? sentence;
}

/** Candidate sentences of each source's best passages, with their passage and citation. */
export function candidateSentences(sources: AnswerSource[]): Candidate[] {
  const out: Candidate[] = [];
  for (const source of sources) {
    for (const passage of source.passages.slice(0, PASSAGES_PER_SOURCE)) {
      const inPassage = sentences(passage.text);
      inPassage.forEach((sentence, i) => {
        for (const quoted of splitRunOnSentences(
          quoteSentence(wholeSentence(source.text, sentence.text, i === inPassage.length - 1)),
        )) {
          if (quotable(quoted))
            out.push({
              text: quoted,
              citation: source.n,
              title: source.title,
              context: passage.text,
              passageScore: passage.relevance.score,
            });
        }
      });
    }
  }
  return out;
}

export interface RankedCandidate extends Candidate {
  /** How well it answers, blended with its passage's score. */
  score: number;
}

export interface AnswerEvidence {
  /** Candidates scored for how well they answer, best first. */
  ranked: RankedCandidate[];
  focus: QuestionFocus;
  /** What is known of each page that has a quotable sentence, in citation order. */
  pages: PageEvidence[];
}

/**
 * Candidates scored for how well they answer, best sentence first; what was read of the
 * question; and each page's evidence for choosing the page that answers.
 */
export async function answerEvidence(
  query: string,
  sources: AnswerSource[],
  options: ExtractiveOptions,
): Promise<AnswerEvidence> {
  const candidates = candidateSentences(sources);
  // The question's term weights and shape, once for both the sentences and the page priors.
  const focus = questionFocus(
    query,
    sources.map((s) => `${s.title}\n${s.text}`),
  );
  const answering = await scoreAnswerSentences(focus, candidates, {
    embedder: options.embedder,
    reranker: options.reranker ?? null,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const toWeigh = sources.map((s) => ({ title: s.title, text: s.text, position: s.n }));
  const parts = pagePriorParts(focus, toWeigh);
  const ranked = candidates
    .map((c, i) => ({
      ...c,
      score: round(BLEND.sentence * answering[i]! + BLEND.passage * c.passageScore),
    }))
    .sort((a, b) => b.score - a.score);
  const pages: PageEvidence[] = [];
  sources.forEach((source, i) => {
    const best = ranked.find((c) => c.citation === source.n);
    if (!best) return;
    const terms = contentTerms(best.text);
    pages.push({
      citation: source.n,
      titleLead: parts[i]!.titleLead,
      wholePage: parts[i]!.wholePage,
      position: parts[i]!.position,
      passage: source.passages[0]?.relevance.score ?? 0,
      sentence: best.score,
      distinctive: weightedShare(focus.distinctive, new Set(terms)),
      novelty: novelty(focus.terms, terms),
    });
  });
  return { ranked, focus, pages };
}

export async function extractiveAnswer(
  query: string,
  sources: AnswerSource[],
  options: ExtractiveOptions,
): Promise<Answer> {
  if (!sourcesAnswerable(sources)) return NOT_ANSWERED;
  const { ranked, pages } = await answerEvidence(query, sources, options);
  const choice = choosePage(options.choice ?? shippedAnswerChoice(), pages);
  if (!choice.answered) return NOT_ANSWERED;
  const top = ranked.find((c) => c.citation === choice.citation);
  if (!top) return NOT_ANSWERED;
  const quoted = quotedSentences(ranked, top, options.maxSentences);
  return { text: renderQuotes(quoted), answered: true, sentences: quoted };
}

/**
 * The sentences an answer led by `top` quotes: more of its page down to SAME_PAGE_SHARE of its score, none of another
 * page's (the page choice has said which page answers; a second page's better-scored sentence is the distractor it
 * passed over).
 */
export function quotedSentences(
  ranked: readonly RankedCandidate[],
  top: RankedCandidate,
  max: number,
): QuotedSentence[] {
  const chosen: Array<QuotedSentence & { words: Set<string> }> = [];
  for (const candidate of [top, ...ranked]) {
    if (chosen.length >= max) break;
    if (candidate !== top && (candidate.citation !== top.citation || candidate.score < SAME_PAGE_SHARE * top.score))
      continue;
    const words = contentWords(candidate.text);
    if (chosen.some((c) => c.text === candidate.text || jaccard(c.words, words) >= DUPLICATE_JACCARD)) continue;
    chosen.push({ text: candidate.text, citation: candidate.citation, score: candidate.score, words });
  }
  return chosen.map(({ words: _words, ...sentence }) => sentence);
}

const NOT_ANSWERED: Answer = Object.freeze({ text: NO_ANSWER, answered: false, sentences: [] }) as Answer;

/** Quoted sentences as markdown: each escaped (page text renders as text), then its citation. */
export function renderQuotes(quoted: Array<{ text: string; citation: number }>): string {
  return quoted.map((s) => `${escapeMarkdownText(s.text)} [${s.citation}]`).join(' ');
}
