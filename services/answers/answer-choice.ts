/**
 * Which page an extractive answer quotes, and whether it answers at all: two
 * small fitted models over what was read of each page (docs/agent.md, "Answers").
 *
 *   page choice  a conditional logit over the pages that have a quotable sentence:
 *                each page's score is a weighted sum of its evidence (below), and
 *                the page with the highest score leads; its softmax share over the
 *                pages is how clearly it stands out
 *   answering    a logistic model over the leading page's own evidence; below the
 *                threshold the answer is "the sources do not answer"
 *
 * Both are fitted by bench/answer/choice-fit.ts (`npm run bench:answer --
 * --write-model`) on bench:answer's
 * questions (asked with and without their answering pages) inside the
 * evaluation protocol's folds; the weights live in data/answer-choice.json so
 * the figure bench:answer cross-validates is the procedure that made them.
 * Features are on their natural 0..1-ish scales; the fit standardises them and
 * folds the scaling back into the weights.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { CODE_ROOT } from '../../core/paths.js';

/** What is known of one page before choosing: every value is computed from the question and the pages read. */
export interface PageEvidence {
  /** Citation number of the page (its 1-based position among the results). */
  citation: number;
  /** Share of the question's weighted terms in the title (fully) and lead (0.6). */
  titleLead: number;
  /** Whole-page BM25 of the question relative to the best page read. */
  wholePage: number;
  /** 1/√position among the results: the engine's own order. */
  position: number;
  /** The page's best passage relevance (0..1). */
  passage: number;
  /** The page's best sentence's answer score (extractive.ts's blend). */
  sentence: number;
  /** Share of the question's distinctive terms the best sentence holds, weighted by rarity. */
  distinctive: number;
  /** Share of the best sentence's content terms the question lacks. */
  novelty: number;
}

export const PAGE_FEATURES = [
  'titleLead',
  'wholePage',
  'position',
  'passage',
  'sentence',
  'distinctive',
  'novelty',
] as const satisfies ReadonlyArray<keyof PageEvidence>;

/**
 * The answering model reads only what the leading page itself holds, never how it compares with the other pages: in
 * the bench's questions one page answers among distractors, so "another page answers as well" meant doubt there, but
 * on the web several pages answering alike is the usual sign of a good answer.
 */
export const ANSWER_FEATURES = [
  'titleLead',
  'passage',
  'sentence',
  'distinctive',
  'novelty',
] as const satisfies ReadonlyArray<keyof PageEvidence>;

const ModelSchema = z.object({
  page: z.object({ weights: z.array(z.number()).length(PAGE_FEATURES.length) }),
  answer: z.object({
    intercept: z.number(),
    weights: z.array(z.number()).length(ANSWER_FEATURES.length),
    threshold: z.number().min(0).max(1),
  }),
});
export type AnswerChoiceModel = z.infer<typeof ModelSchema>;

export const ANSWER_CHOICE_FILE = join(CODE_ROOT, 'services', 'answers', 'data', 'answer-choice.json');

export function parseAnswerChoiceModel(json: unknown): AnswerChoiceModel {
  return ModelSchema.parse(json);
}

let shipped: AnswerChoiceModel | null = null;
/** The shipped model, read once. */
export function shippedAnswerChoice(): AnswerChoiceModel {
  shipped ??= parseAnswerChoiceModel(JSON.parse(readFileSync(ANSWER_CHOICE_FILE, 'utf8')));
  return shipped;
}

export function pageFeatureVector(page: PageEvidence): number[] {
  return PAGE_FEATURES.map((name) => page[name]);
}

export function dot(weights: readonly number[], values: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < weights.length; i++) sum += weights[i]! * values[i]!;
  return sum;
}

export interface AnswerChoice {
  /** The leading page's citation, or null when no page has a quotable sentence. */
  citation: number | null;
  /** Probability that the leading page answers the question. */
  confidence: number;
  answered: boolean;
}

/** The answering model's features: the leading page's own evidence. */
export function answerFeatureVector(page: PageEvidence): number[] {
  return ANSWER_FEATURES.map((name) => page[name]);
}

/** Each page's choice score; the highest leads (ties to the earlier result). */
export function pageScores(model: AnswerChoiceModel, pages: readonly PageEvidence[]): number[] {
  return pages.map((page) => dot(model.page.weights, pageFeatureVector(page)));
}

export function choosePage(model: AnswerChoiceModel, pages: readonly PageEvidence[]): AnswerChoice {
  if (pages.length === 0) return { citation: null, confidence: 0, answered: false };
  const scores = pageScores(model, pages);
  let lead = 0;
  scores.forEach((score, i) => {
    if (score > scores[lead]!) lead = i;
  });
  const z = model.answer.intercept + dot(model.answer.weights, answerFeatureVector(pages[lead]!));
  const confidence = 1 / (1 + Math.exp(-z));
  return { citation: pages[lead]!.citation, confidence, answered: confidence >= model.answer.threshold };
}

/** Share of the sentence's content terms that are not the question's, 0..1 (0 for a sentence without any). */
export function novelty(questionTerms: ReadonlySet<string>, sentenceTerms: readonly string[]): number {
  if (sentenceTerms.length === 0) return 0;
  return sentenceTerms.filter((term) => !questionTerms.has(term)).length / sentenceTerms.length;
}
