/**
 * Extractive answers, for when no language model is configured (or it
 * failed): sentences quoted from the read pages, ranked for how well they
 * answer the question, each followed by its citation [n] (docs/agent.md, "Answers").
 *
 * 1. If even the best passage of all sources scores below ANSWERED_MIN the
 *    answer is NO_ANSWER.
 * 2. Each page gets a score: its best passage's plus its prior (title and
 *    lead, whole-page term match, search position; ranking/page-prior.ts).
 * 3. The sentences (5 to 60 words, no instructions aimed at an agent; a
 *    lower-cased run-on sentence cut into its sentences, ranking/run-on-sentences.ts)
 *    of each page's best passages are scored for how well they answer
 *    (ranking/answer-sentences.ts), blended 0.7 × that + 0.3 × their passage's score.
 * 4. The strongest page leads: its best sentence is the answer's first.
 *    Whether it answers at all is a separate, calibrated confidence
 *    (ranking/answer-confidence.ts: the best sentence of any other page, the
 *    page's margin, what the sentence adds to the question, and how much of the
 *    question's distinctive terms it holds); below ABSTAIN_BELOW the answer is
 *    NO_ANSWER.
 * 5. The margin rule: more sentences follow from the same page down to
 *    SAME_PAGE_SHARE of the first's score; a sentence of another page only
 *    when that page is within OTHER_PAGE_MARGIN of the leading one and the
 *    sentence scores at least as well as the first. Sentences whose words
 *    mostly repeat one already taken (Jaccard ≥ 0.6) are skipped.
 */
import type { Embedder } from '../embeddings/types.js';
import type { RankedPassage } from '../ranking/page-passages.js';
import { answerConfidence, novelty } from '../ranking/answer-confidence.js';
import { scoreAnswerSentences } from '../ranking/answer-sentences.js';
import { pagePriors } from '../ranking/page-prior.js';
import { sentences } from '../ranking/passages.js';
import { questionFocus, type QuestionFocus } from '../ranking/question-focus.js';
import type { PassageReranker } from '../ranking/reranker.js';
import { splitRunOnSentences } from '../ranking/run-on-sentences.js';
import { weightedShare } from '../ranking/term-weights.js';
import { contentTerms, contentTokens } from '../ranking/tokens.js';
import { isAgentInstruction } from '../sources/safety.js';
import { escapeMarkdownText } from '../markdown/escape.js';
import { NO_ANSWER, quoteSentence } from './citations.js';
import { roundScore as round } from '../../core/rounding.js';

/** Below this best-passage score the sources are taken not to answer the question (research's test too). */
export const ANSWERED_MIN = 0.5;
/**
 * Below this confidence (a probability, ranking/answer-confidence.ts) no sentence answers. Set on
 * bench:answer's 120 questions and 39 controls (each control asked without its gold pages, on an
 * app of its own): every threshold from 0.43 to 0.48 holds the bar on them and on the
 * held-out questions; 0.45 is the middle. docs/agent.md, "Benchmark", has what each measures.
 */
export const ABSTAIN_BELOW = 0.45;
/** Further sentences of the leading page are quoted down to this share of the first's score. */
export const SAME_PAGE_SHARE = 0.6;
/** Another page's sentence is quoted only when that page scores this close to the leading one. */
export const OTHER_PAGE_MARGIN = 0.05;
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
  /** Its page's score: best passage plus the page prior. */
  pageScore: number;
}

/**
 * Candidates scored for how well they answer, each with its page's score, best sentence first; and what was read of the
 * question.
 */
export async function rankCandidates(
  query: string,
  sources: AnswerSource[],
  options: ExtractiveOptions,
): Promise<{ ranked: RankedCandidate[]; focus: QuestionFocus }> {
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
  const priors = pagePriors(
    focus,
    sources.map((s) => ({ title: s.title, text: s.text, position: s.n })),
  );
  const pageScore = new Map(sources.map((s, i) => [s.n, round((s.passages[0]?.relevance.score ?? 0) + priors[i]!)]));
  const ranked = candidates
    .map((c, i) => ({
      ...c,
      score: round(BLEND.sentence * answering[i]! + BLEND.passage * c.passageScore),
      pageScore: pageScore.get(c.citation)!,
    }))
    .sort((a, b) => b.score - a.score);
  return { ranked, focus };
}

export async function extractiveAnswer(
  query: string,
  sources: AnswerSource[],
  options: ExtractiveOptions,
): Promise<Answer> {
  const best = Math.max(0, ...sources.flatMap((s) => s.passages.map((p) => p.relevance.score)));
  if (best < ANSWERED_MIN) return NOT_ANSWERED;
  const { ranked, focus } = await rankCandidates(query, sources, options);
  const pageScores = [...new Set(ranked.map((c) => c.pageScore))].sort((a, b) => b - a);
  const leading = pageScores[0] ?? 0;
  const top = ranked.find((c) => c.pageScore === leading);
  if (!top) return NOT_ANSWERED;
  // The best sentence of any other page: a rival that answers as well makes the lead doubtful.
  const rival = ranked.find((c) => c.citation !== top.citation)?.score ?? 0;
  const topTerms = contentTerms(top.text);
  const confidence = answerConfidence({
    rival,
    margin: leading - (pageScores[1] ?? 0),
    novelty: novelty(focus.terms, topTerms),
    distinctive: weightedShare(focus.distinctive, new Set(topTerms)),
  });
  if (confidence < ABSTAIN_BELOW) return NOT_ANSWERED;
  const chosen: Array<QuotedSentence & { words: Set<string> }> = [];
  for (const candidate of [top, ...ranked]) {
    if (chosen.length >= options.maxSentences) break;
    const enough =
      candidate === top ||
      (candidate.citation === top.citation
        ? candidate.score >= SAME_PAGE_SHARE * top.score
        : candidate.pageScore >= leading - OTHER_PAGE_MARGIN && candidate.score >= top.score);
    if (!enough) continue;
    const words = contentWords(candidate.text);
    if (chosen.some((c) => c.text === candidate.text || jaccard(c.words, words) >= DUPLICATE_JACCARD)) continue;
    chosen.push({ text: candidate.text, citation: candidate.citation, score: candidate.score, words });
  }
  const quoted = chosen.map(({ words: _words, ...sentence }) => sentence);
  return { text: renderQuotes(quoted), answered: true, sentences: quoted };
}

const NOT_ANSWERED: Answer = Object.freeze({ text: NO_ANSWER, answered: false, sentences: [] }) as Answer;

/** Quoted sentences as markdown: each escaped (page text renders as text), then its citation. */
export function renderQuotes(quoted: Array<{ text: string; citation: number }>): string {
  return quoted.map((s) => `${escapeMarkdownText(s.text)} [${s.citation}]`).join(' ');
}
