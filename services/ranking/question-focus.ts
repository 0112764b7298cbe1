/**
 * What the answer scorers need to know about a question, computed once per
 * question over the pages read together and passed to each of them (the page
 * prior and the sentence scorer): its weighted terms (term-weights.ts), the
 * answer shape it asks for (question-shape.ts) and its content terms.
 */
import { questionShape, type QuestionShape } from './question-shape.js';
import { questionTermWeights, type TermWeights } from './term-weights.js';
import { contentTerms } from './tokens.js';

export interface QuestionFocus {
  question: string;
  weights: TermWeights;
  shape: QuestionShape;
  /** The question's content terms (tokens.ts), for telling what a sentence adds beyond them. */
  terms: ReadonlySet<string>;
}

/** `pageTexts`: the pages read together (title and text), which the term weights come from. */
export function questionFocus(question: string, pageTexts: readonly string[]): QuestionFocus {
  return { question, weights: questionTermWeights(question, pageTexts), shape: questionShape(question), terms: new Set(contentTerms(question)) };
}
