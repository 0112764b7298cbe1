/**
 * The spec's credibility vocabularies and how published labels map onto
 * them (docs/verify.md, "Source credibility"). Only labels a rating set
 * actually publishes are mapped; nothing is inferred from a score.
 */

export const SOURCE_CATEGORIES = [
  'news',
  'academic',
  'government',
  'commercial',
  'personal',
  'satire',
  'unknown',
] as const;
export const BIAS_RATINGS = [
  'far_left',
  'left',
  'center_left',
  'center',
  'center_right',
  'right',
  'far_right',
  'unknown',
] as const;
export const FACTUAL_RATINGS = ['very_high', 'high', 'mostly_factual', 'mixed', 'low', 'very_low', 'unknown'] as const;

export type SourceCategory = (typeof SOURCE_CATEGORIES)[number];
export type BiasRating = (typeof BIAS_RATINGS)[number];
export type FactualReporting = (typeof FACTUAL_RATINGS)[number];

/**
 * Baly et al.'s labels (collected from MBFC). Their factuality has three levels: MBFC's
 * "very high", "high" and "mostly factual" all appear as "high", so "high" is the most it can say.
 */
const BALY_FACT: Record<string, FactualReporting> = { high: 'high', mixed: 'mixed', low: 'low' };
/** MBFC's own six levels, for supplied files that carry them (spaces, hyphens or underscores). */
const MBFC_FACT: Record<string, FactualReporting> = {
  'very high': 'very_high',
  'mostly factual': 'mostly_factual',
  'very low': 'very_low',
};
const BALY_BIAS: Record<string, BiasRating> = {
  'extreme-left': 'far_left',
  left: 'left',
  'left-center': 'center_left',
  center: 'center',
  'right-center': 'center_right',
  right: 'right',
  'extreme-right': 'far_right',
};

export function factualFromBaly(label: string): FactualReporting | null {
  const key = label
    .trim()
    .toLowerCase()
    .replace(/[-_\s]+/g, ' ');
  return BALY_FACT[key] ?? MBFC_FACT[key] ?? null;
}

export function biasFromBaly(label: string): BiasRating | null {
  return BALY_BIAS[label.trim().toLowerCase()] ?? null;
}

/**
 * The score a factual label stands for, used only when a domain has a label but no pc1: the
 * midpoints of six equal bands, so "high" (0.75) sits where MBFC's scale puts it.
 */
export const FACTUAL_SCORE: Record<Exclude<FactualReporting, 'unknown'>, number> = {
  very_high: 0.917,
  high: 0.75,
  mostly_factual: 0.583,
  mixed: 0.417,
  low: 0.25,
  very_low: 0.083,
};
