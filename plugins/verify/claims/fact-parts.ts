/**
 * The parts of one fact: the pieces a long statement strings together with
 * commas, brackets and linking words ("X, one of five trades and the only one
 * dedicated to Y"). A page can state some parts and not others; that is what
 * tells a fact supported in full from one supported in part. Each part is
 * looked for in the fact's evidence sentences (ranking's term cover).
 */
import { coverTerms } from '../../../services/ranking/term-cover.js';
import { analyse, termCoverage, type TextAnalysis } from './analysis.js';
import type { Fact } from './facts.js';
import { unmentioned, type PageMentions, type Unmentioned } from './mentions.js';
import { roundConfidence as round } from '../../../core/rounding.js';

const LINKS =
  /\s*(?:[,;()]|\s[-–—]\s|\s+(?:and|or|which|who|whom|whose|including|as well as|with|after|before|while|where|when|because|since|until|although)\s+)\s*/i;
/** A part needs this many content terms of its own; shorter pieces stay with the part before them. */
const MIN_PART_TERMS = 2;
/** Sentences that may hold one part together (a name on one line, what it did on the next). */
const SENTENCES_PER_PART = 2;

export function partsOf(fact: Fact): TextAnalysis[] {
  const parts: string[] = [];
  for (const piece of fact.text.split(LINKS)) {
    if (!piece) continue;
    if (parts.length > 0 && analyse(parts[parts.length - 1]!).terms.size < MIN_PART_TERMS)
      parts[parts.length - 1] += ` ${piece}`;
    else parts.push(piece);
  }
  const analysed = parts.map(analyse).filter((a) => a.terms.size >= MIN_PART_TERMS);
  return analysed.length > 0 ? analysed : [fact.analysis];
}

/** What a fact's evidence sentences hold of it. */
export interface FactReach {
  /** Weighted share of the fact's terms in its cover sentences read together. */
  coverage: number;
  /** Per part, the share of its terms its best one or two sentences hold. */
  parts: number[];
  /** The fact's names and figures no page mentions (when the pages' mentions were given). */
  unmentioned?: Unmentioned;
}

export function reachOf(
  fact: Fact,
  evidence: ReadonlyArray<{ analysis: TextAnalysis; inCover?: boolean }>,
  mentions?: PageMentions,
): FactReach {
  const cover = evidence.filter((e) => e.inCover);
  const together = analyse((cover.length > 0 ? cover : evidence).map((e) => e.analysis.text).join(' '));
  const reach: FactReach = {
    coverage: round(termCoverage(fact.analysis, together)),
    parts: partShares(fact, evidence),
  };
  return mentions ? { ...reach, unmentioned: unmentioned(fact.analysis, mentions) } : reach;
}

/** For each part of the fact, the weighted share of its terms that its best one or two evidence sentences hold. */
export function partShares(fact: Fact, evidence: ReadonlyArray<{ analysis: TextAnalysis }>): number[] {
  const sentences = evidence.map((e) => new Set(e.analysis.tokens));
  return partsOf(fact).map((part) => round(coverTerms(part.terms, sentences, SENTENCES_PER_PART).share));
}
