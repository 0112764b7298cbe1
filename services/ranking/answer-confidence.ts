/**
 * Whether the best sentence found answers the question at all, as a
 * probability: a small logistic model kept apart from which sentence answers
 * best (answer-sentences.ts ranks; this decides whether to say anything).
 *
 *   rival        the best sentence score of any other page: a distractor that
 *                shares the question's words scores nearly as well, a page that
 *                answers stands out
 *   margin       the leading page's lead over the runner-up page (capped)
 *   novelty      share of the sentence's content words the question lacks: a
 *                sentence that says the question's terms back in their context is
 *                the answer more often than one that wanders off
 *   distinctive  share of the question's distinctive terms the sentence holds,
 *                each weighted by its rarity among the pages read (term-weights.ts):
 *                a sentence that leaves out what the question is about, or sources
 *                where no page names it, do not answer it
 *
 *   confidence = σ(1.59 − 3.07·rival + 2.09·min(margin, 0.3) − 1.52·novelty + 1.71·distinctive)
 *
 * Fitted on bench:answer's 120 tuning questions and their 39 controls (label:
 * the leading page is a gold page; a control's answer never is), with the
 * candidate sentences as services/answers/extractive.ts builds them; the
 * held-out questions are reported beside it in docs/agent.md ("Benchmark").
 * The leading sentence's own score is not a feature: beside the distinctive
 * share it added nothing (its fitted weight turned negative).
 */

export interface ConfidenceFeatures {
  rival: number;
  margin: number;
  novelty: number;
  distinctive: number;
}

export const MARGIN_CAP = 0.3;
const WEIGHTS = { intercept: 1.59, rival: -3.07, margin: 2.09, novelty: -1.52, distinctive: 1.71 } as const;

export function answerConfidence(features: ConfidenceFeatures): number {
  const z =
    WEIGHTS.intercept +
    WEIGHTS.rival * features.rival +
    WEIGHTS.margin * Math.min(features.margin, MARGIN_CAP) +
    WEIGHTS.novelty * features.novelty +
    WEIGHTS.distinctive * features.distinctive;
  return 1 / (1 + Math.exp(-z));
}

/** Share of the sentence's content terms that are not the question's, 0..1 (0 for a sentence without any). */
export function novelty(questionTerms: ReadonlySet<string>, sentenceTerms: readonly string[]): number {
  if (sentenceTerms.length === 0) return 0;
  return sentenceTerms.filter((term) => !questionTerms.has(term)).length / sentenceTerms.length;
}
