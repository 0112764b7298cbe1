/**
 * What the experimental claim-level verdict model (verdict-model.ts,
 * fitted by wice-fit.ts) reads of one checked claim: a short vector of numbers the pipeline already knows — how much of
 * the claim its best one, two and three sentences hold, how each fact was
 * graded and judged, which of the claim's names and figures the pages never
 * state, how close in meaning its best evidence came, and the claim's shape.
 * Each value lies in 0..1 so the fitted weights stay comparable.
 */
import { gradeOf, type FactOutcome, type Verdict } from '../../plugins/verify/claims/aggregate.js';
import { analyse, termCoverage, type TextAnalysis } from '../../plugins/verify/claims/analysis.js';
import type { ClaimAssessment } from '../../plugins/verify/claims/check-claim.js';
import type { FactReach } from '../../plugins/verify/claims/fact-parts.js';
import { cleanClaim } from '../../plugins/verify/claims/facts.js';
import { unmentioned, type PageMentions } from '../../plugins/verify/claims/mentions.js';
import { coverTerms } from '../../services/ranking/term-cover.js';

export const VERDICT_FEATURES = [
  'claim_best_sentence',
  'claim_best_sentence_plain',
  'claim_best_two',
  'claim_best_three',
  'claim_cover_missing',
  'page_terms_missing',
  'page_terms_missing_count',
  'title_share',
  'page_sentences',
  'fact_grade_min',
  'fact_grade_mean',
  'fact_part_min',
  'fact_part_mean',
  'facts_supported',
  'facts_partly_or_supported',
  'support_max',
  'support_min',
  'contradiction_max',
  'semantic_best',
  'names_unmentioned',
  'figures_unmentioned',
  'facts_count',
  'claim_length',
  'claim_negated',
  'rules_true',
  'rules_partially_true',
] as const;
export type VerdictFeature = (typeof VERDICT_FEATURES)[number];

export interface FeatureInput {
  claim: TextAnalysis;
  /** Every sentence read of the pages. */
  sentences: readonly TextAnalysis[];
  /** The pages' titles. */
  titles: readonly TextAnalysis[];
  mentions: PageMentions;
  outcomes: readonly FactOutcome[];
  /** Per fact, in the order of `outcomes`. */
  reaches: readonly FactReach[];
  /** What the hand-set rules (aggregate.ts) concluded from the same evidence. */
  rulesVerdict: Verdict;
}

/** Claims with more content terms than this count as long. */
const LONG_CLAIM_TERMS = 30;
const MAX_FACTS_COUNTED = 4;
/** Weight of the claim's terms missing (a name weighs 2) at which the count saturates. */
const MISSING_WEIGHT_CAP = 6;
/** Pages of more sentences than this count as long (log scale). */
const LONG_PAGE_SENTENCES = 1000;

/** The features of a claim the pipeline assessed against pages of these titles. */
export function featuresOf(
  claim: string,
  titles: readonly string[],
  assessment: ClaimAssessment,
): Record<VerdictFeature, number> {
  const { byRules, reaches, sentences, mentions } = assessment;
  return verdictFeatures({
    claim: analyse(cleanClaim(claim)),
    sentences,
    titles: titles.map(analyse),
    mentions,
    outcomes: byRules.facts,
    reaches,
    rulesVerdict: byRules.verdict,
  });
}

export function verdictFeatures(input: FeatureInput): Record<VerdictFeature, number> {
  const { claim, sentences, outcomes, reaches } = input;
  const grades = reaches.map((r) => gradeOf(r));
  const parts = reaches.flatMap((r) => r.parts);
  const semantic = outcomes.map((o) => Math.max(0, ...o.evidence.map((e) => e.semantic)));
  const missing = unmentioned(claim, input.mentions);
  const figures = claim.quantities.length + claim.years.length;
  const share = (pick: (o: FactOutcome) => boolean) => outcomes.filter(pick).length / Math.max(1, outcomes.length);
  const tokenSets = sentences.map((s) => new Set(s.tokens));
  const three = coverTerms(claim.terms, tokenSets, 3);
  const onPages = new Set(input.mentions.tokens);
  const absent = [...claim.terms].filter(([term]) => !onPages.has(term));
  const totalWeight = [...claim.terms.values()].reduce((a, b) => a + b, 0);
  const weightOf = (terms: ReadonlyArray<string>) => terms.reduce((sum, t) => sum + (claim.terms.get(t) ?? 0), 0);
  return {
    claim_best_sentence: Math.max(0, ...sentences.map((s) => termCoverage(claim, s))),
    claim_best_sentence_plain: bestPlainShare(claim, tokenSets),
    claim_best_two: coverTerms(claim.terms, tokenSets, 2).share,
    claim_best_three: three.share,
    claim_cover_missing: Math.min(1, weightOf(three.missing) / MISSING_WEIGHT_CAP),
    page_terms_missing: totalWeight === 0 ? 0 : weightOf(absent.map(([t]) => t)) / totalWeight,
    page_terms_missing_count: Math.min(1, weightOf(absent.map(([t]) => t)) / MISSING_WEIGHT_CAP),
    title_share: Math.max(0, ...input.titles.map((t) => termCoverage(claim, t))),
    page_sentences: Math.min(1, Math.log10(1 + sentences.length) / Math.log10(LONG_PAGE_SENTENCES)),
    fact_grade_min: Math.min(1, ...grades),
    fact_grade_mean: mean(grades),
    fact_part_min: Math.min(1, ...parts),
    fact_part_mean: mean(parts),
    facts_supported: share((o) => o.status === 'supported'),
    facts_partly_or_supported: share((o) => o.status === 'supported' || o.status === 'partly_supported'),
    support_max: Math.max(0, ...outcomes.map((o) => o.support)),
    support_min: Math.min(1, ...outcomes.map((o) => o.support)),
    contradiction_max: Math.max(0, ...outcomes.map((o) => o.contradiction)),
    semantic_best: mean(semantic),
    names_unmentioned: missing.nameShare,
    figures_unmentioned: figures === 0 ? 0 : missing.figures.length / figures,
    facts_count: (Math.min(MAX_FACTS_COUNTED, outcomes.length) - 1) / (MAX_FACTS_COUNTED - 1),
    claim_length: Math.min(1, claim.terms.size / LONG_CLAIM_TERMS),
    claim_negated: claim.negations > 0 ? 1 : 0,
    rules_true: input.rulesVerdict === 'true' ? 1 : 0,
    rules_partially_true: input.rulesVerdict === 'partially_true' ? 1 : 0,
  };
}

/** The word-overlap baseline's own score: the unweighted share of the claim's terms in its best sentence. */
function bestPlainShare(claim: TextAnalysis, sentences: ReadonlyArray<ReadonlySet<string>>): number {
  const terms = [...claim.terms.keys()];
  if (terms.length === 0) return 0;
  return Math.max(0, ...sentences.map((s) => terms.filter((t) => s.has(t)).length / terms.length));
}

function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length;
}
