/**
 * contentQualityScore: how much useful reading the extraction holds, 0..1.
 * The formula is documented in docs/extraction.md; keep the two in step.
 */
import { roundTo } from '../../core/rounding.js';

export interface QualityInputs {
  success: boolean;
  mainWords: number;
  /** Characters of the main text (whitespace collapsed). */
  mainChars: number;
  /** Characters of all visible page text (whitespace collapsed). */
  pageChars: number;
  /** Characters of main text inside links. */
  linkChars: number;
  paragraphs: number;
  hasTitle: boolean;
  hasDescription: boolean;
  hasAuthor: boolean;
  hasDate: boolean;
}

export const QUALITY_WEIGHTS = { length: 0.35, share: 0.15, links: 0.2, paragraphs: 0.15, metadata: 0.15 } as const;

/** Words at which the length term reaches 1 − 1/e ≈ 0.63. */
const LENGTH_SCALE_WORDS = 300;
/** A main text holding this share of the page's visible text scores 1. */
const FULL_SHARE = 0.5;
/** Link density at which the link term reaches 0. */
const MAX_LINK_DENSITY = 0.5;
/** Average paragraph length (words) that scores 1. */
const FULL_PARAGRAPH_WORDS = 40;

const clamp = (value: number): number => Math.min(1, Math.max(0, value));

export function contentQualityScore(inputs: QualityInputs): number {
  if (!inputs.success || inputs.mainWords === 0) return 0;
  const length = 1 - Math.exp(-inputs.mainWords / LENGTH_SCALE_WORDS);
  const share = inputs.pageChars > 0 ? clamp(inputs.mainChars / inputs.pageChars / FULL_SHARE) : 1;
  const linkDensity = inputs.mainChars > 0 ? inputs.linkChars / inputs.mainChars : 1;
  const links = clamp(1 - linkDensity / MAX_LINK_DENSITY);
  const paragraphs = clamp(inputs.mainWords / Math.max(1, inputs.paragraphs) / FULL_PARAGRAPH_WORDS);
  const metadata =
    0.4 * Number(inputs.hasTitle) +
    0.2 * Number(inputs.hasDescription) +
    0.2 * Number(inputs.hasAuthor) +
    0.2 * Number(inputs.hasDate);
  const score =
    QUALITY_WEIGHTS.length * length +
    QUALITY_WEIGHTS.share * share +
    QUALITY_WEIGHTS.links * links +
    QUALITY_WEIGHTS.paragraphs * paragraphs +
    QUALITY_WEIGHTS.metadata * metadata;
  return roundTo(clamp(score), 3);
}
