/**
 * The pruning filter: drops boilerplate blocks (menus, footers, share bars,
 * link lists) and keeps the prose. Each block gets a score in 0..1:
 *
 *   text density  td = text characters / markup characters of the block itself
 *   link density  ld = characters inside links / text characters
 *   tag weight    tw = 1 for p, pre, blockquote; 0.9 h1–h3; 0.8 h4–h6; 0.7 figcaption, dd;
 *                      0.6 li, dt, tr; 0.5 anything else (div, td, section…)
 *   length        lf = min(1, ln(1 + words) / ln(31))   (30 words or more count fully)
 *   base          = 0.35·td + 0.30·(1 − ld) + 0.15·tw + 0.20·lf
 *   hints         × 0.5 when the block or an ancestor is page furniture by the
 *                 extractor's detector (services/extract/boilerplate.ts: nav, footer,
 *                 aside, a page <header>, navigation roles, class/id names of menus,
 *                 sidebars, share bars, cookie banners, ads…);
 *                 otherwise + 0.1 (capped at 1) for a content class/id (article, content, post…)
 *
 * A block is kept when score ≥ threshold (default 0.5) and it has at least
 * min_words words (default 0).
 */
import { roundTo } from '../../../core/rounding.js';
import type { TextBlock } from '../../../services/page-analysis/text-blocks.js';

export const DEFAULT_PRUNING_THRESHOLD = 0.5;

const POSITIVE_HINTS = /(?:^|[\s_-])(article|content|entry|post|main|story|prose|markdown|body-text)(?=$|[\s_-])/;

function tagWeight(block: TextBlock): number {
  const tag = block.tag;
  if (tag === 'p' || tag === 'pre' || tag === 'blockquote') return 1;
  if (block.kind === 'heading') return (block.level ?? 6) <= 3 ? 0.9 : 0.8;
  if (tag === 'figcaption' || tag === 'dd') return 0.7;
  if (tag === 'li' || tag === 'dt' || tag === 'tr') return 0.6;
  return 0.5;
}

export interface PruningScore {
  score: number;
  textDensity: number;
  linkDensity: number;
  boilerplateHint: boolean;
}

export function pruningScore(block: TextBlock): PruningScore {
  const textDensity = Math.min(1, block.textChars / Math.max(1, block.markupChars));
  const linkDensity = Math.min(1, block.linkChars / Math.max(1, block.textChars));
  const lengthFactor = Math.min(1, Math.log(1 + block.words) / Math.log(31));
  const base = 0.35 * textDensity + 0.3 * (1 - linkDensity) + 0.15 * tagWeight(block) + 0.2 * lengthFactor;
  const boilerplateHint = block.furniture;
  const score = boilerplateHint ? base * 0.5 : Math.min(1, base + (POSITIVE_HINTS.test(block.hints) ? 0.1 : 0));
  return { score: roundTo(score, 3), textDensity, linkDensity, boilerplateHint };
}

export function pruneBlocks(blocks: TextBlock[], options: { threshold?: number; minWords?: number } = {}): TextBlock[] {
  const threshold = options.threshold ?? DEFAULT_PRUNING_THRESHOLD;
  const minWords = options.minWords ?? 0;
  return blocks.filter((block) => block.words >= minWords && pruningScore(block).score >= threshold);
}
