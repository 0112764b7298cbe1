/**
 * How likely each page read is the page a question is about, before any of
 * its sentences is read closely (evidence for choosing the page a cited answer
 * quotes, services/answers/answer-choice.ts):
 *
 *   title and lead  the question's weighted terms (term-weights.ts) in the title
 *                   count fully, in the lead (first ~400 characters) 0.6, as titles
 *                   count above text in lexical relevance
 *   whole page      BM25 of the question over the pages read together (bm25.ts;
 *                   their first PAGE_TEXT_CHARS), relative to the best of them
 *   position        1/√position among the search results: the engine's own order
 *
 * Each part is relative to the pages scored together; how much each weighs is
 * the fitted page-choice model's.
 */
import { bm25Scores } from './bm25.js';
import { contentTerms } from './tokens.js';
import type { QuestionFocus } from './question-focus.js';
import { PAGE_TEXT_CHARS, type TermWeights } from './term-weights.js';

export const LEAD_CHARS = 400;
const LEAD_STRENGTH = 0.6;

export interface PageToWeigh {
  title: string;
  text: string;
  /** 1-based position among the search results. */
  position: number;
}

/** Share of the weighted question terms in the page's title (fully) and lead (0.6), 0..1. */
export function titleLeadMatch(weights: TermWeights, page: Pick<PageToWeigh, 'title' | 'text'>): number {
  if (weights.total === 0) return 1;
  const inTitle = new Set(contentTerms(page.title));
  const inLead = new Set(contentTerms(page.text.slice(0, LEAD_CHARS)));
  let sum = 0;
  weights.terms.forEach(
    (term, i) => (sum += weights.weights[i]! * (inTitle.has(term) ? 1 : inLead.has(term) ? LEAD_STRENGTH : 0)),
  );
  return sum / weights.total;
}

/** The prior's parts, each 0..1: title and lead match, whole-page BM25 relative to the best page, 1/√position. */
export interface PagePriorParts {
  titleLead: number;
  wholePage: number;
  position: number;
}

/** Each page's prior parts, relative to the pages given (the focus's weights come from the same pages). */
export function pagePriorParts(focus: QuestionFocus, pages: readonly PageToWeigh[]): PagePriorParts[] {
  const texts = pages.map((p) => `${p.title}\n${p.text.slice(0, PAGE_TEXT_CHARS)}`);
  const bm25 = bm25Scores(focus.question, texts);
  const top = Math.max(...bm25, 0);
  return pages.map((page, i) => ({
    titleLead: titleLeadMatch(focus.weights, page),
    wholePage: top > 0 ? bm25[i]! / top : 0,
    position: 1 / Math.sqrt(Math.max(1, page.position)),
  }));
}
