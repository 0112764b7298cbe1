/**
 * What the answer scorers need to know about a question, computed once per
 * question over the pages read together and passed to each of them (the page
 * prior, the sentence scorer and the answer confidence): its weighted terms
 * (term-weights.ts), the answer shape it asks for (question-shape.ts) and its
 * content terms.
 */
import { questionShape, type QuestionShape } from './question-shape.js';
import { distinctiveWeights, focusWeights, termCounts, type TermWeights } from './term-weights.js';
import { contentTerms } from './tokens.js';

export interface QuestionFocus {
  question: string;
  /** Its terms weighted for ranking, the focus term twice. */
  weights: TermWeights;
  /** The terms that name what it is about, weighted by rarity among the pages (framing words out). */
  distinctive: TermWeights;
  shape: QuestionShape;
  /** The question's content terms (tokens.ts), for telling what a sentence adds beyond them. */
  terms: ReadonlySet<string>;
}

/** `pageTexts`: the pages read together (title and text), which the term weights come from. */
export function questionFocus(question: string, pageTexts: readonly string[]): QuestionFocus {
  const counts = termCounts(question, pageTexts);
  return {
    question,
    weights: focusWeights(counts),
    distinctive: distinctiveWeights(counts),
    shape: questionShape(question),
    terms: new Set(contentTerms(question)),
  };
}
