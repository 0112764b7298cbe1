/**
 * Whether the best sentence found answers the question at all, as a
 * probability: a small logistic model kept apart from which sentence answers
 * best (answer-sentences.ts ranks; this decides whether to say anything).
 *
 *   best      the leading page's best sentence's score (how well it answers)
 *   rival     the best sentence score of any other page: a distractor that
 *             shares the question's words scores nearly as well, a page that
 *             answers stands out
 *   margin    the leading page's lead over the runner-up page (capped)
 *   novelty   share of the sentence's content words the question lacks: a
 *             sentence that says the question's terms back in their context is
 *             the answer more often than one that wanders off
 *
 *   confidence = σ(2.11 + 1.41·best − 3.31·rival + 2.88·min(margin, 0.3) − 2.13·novelty)
 *
 * Fitted on bench:answer's 120 tuning questions and their 39 controls (label:
 * the leading page is a gold page; a control's answer never is), with the
 * candidate sentences as services/answers/extractive.ts builds them; the
 * held-out questions are reported beside it in docs/agent.md ("Benchmark").
 */

export interface ConfidenceFeatures {
  best: number;
  rival: number;
  margin: number;
  novelty: number;
}

export const MARGIN_CAP = 0.3;
const WEIGHTS = { intercept: 2.11, best: 1.41, rival: -3.31, margin: 2.88, novelty: -2.13 } as const;

export function answerConfidence(features: ConfidenceFeatures): number {
  const z =
    WEIGHTS.intercept +
    WEIGHTS.best * features.best +
    WEIGHTS.rival * features.rival +
    WEIGHTS.margin * Math.min(features.margin, MARGIN_CAP) +
    WEIGHTS.novelty * features.novelty;
  return 1 / (1 + Math.exp(-z));
}

/** Share of the sentence's content terms that are not the question's, 0..1 (0 for a sentence without any). */
export function novelty(questionTerms: ReadonlySet<string>, sentenceTerms: readonly string[]): number {
  if (sentenceTerms.length === 0) return 0;
  return sentenceTerms.filter((term) => !questionTerms.has(term)).length / sentenceTerms.length;
}
