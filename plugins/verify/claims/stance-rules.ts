/**
 * Stance of one evidence sentence toward one fact, by rules a reader can
 * check (docs/verify.md, "Stance rules"). A sentence must first be about the
 * fact (relevance: the fact's content terms it contains, and meaning); then
 *
 *   contradicts  when it disagrees on polarity (one negated, the other not),
 *                direction (the fact says up, the sentence only down or flat),
 *                an antonym pair, a figure of the same kind that does not
 *                match, a year, or calls the statement false;
 *   supports     when it is about the fact, names its named things, and none
 *                of the above disagree (a matching figure or year adds);
 *   unrelated    otherwise.
 *
 * Hedged sentences ("may", "suggests") count for less either way.
 */
import { analyse, termCoverage, type TextAnalysis } from './analysis.js';
import { ANTONYMS, DIRECTION } from './lexicon.js';
import { agree, sameKind } from './quantities.js';
import type { StanceJudgement } from '../../../services/models/stance-model.js';
import { roundConfidence as round } from '../../../core/rounding.js';

// The judgement's shape is the task models' contract too (an NLI model judges in place of these rules).
export type { Stance, StanceJudgement } from '../../../services/models/stance-model.js';

export interface StanceInput {
  fact: TextAnalysis;
  sentence: TextAnalysis;
  /** Weighted share of the fact's content terms in the sentence. */
  coverage: number;
  /** Combined lexical and semantic relevance, 0..1. */
  relevance: number;
}

export const FIGURE_DIFFERS = 'a figure of the same kind differs';
export const YEAR_DIFFERS = 'a different year';
export const HEDGED = 'the evidence is hedged';
export const FACT_NEGATED = 'the fact is negated, the evidence is not';
export const EVIDENCE_NEGATED = 'the evidence is negated, the fact is not';
export const OTHER_DIRECTION = 'the evidence points the other way (direction words)';
export const OPPOSITE_WORDS = 'opposite words';
export const CALLS_FALSE = 'the evidence calls the statement false';
export const QUALIFIES = 'qualifies the fact';

/** Tunable constants; the defaults were set on the development half of the benchmark (docs/verify.md). */
export const STANCE_RULES = {
  /** Below this relevance a sentence is unrelated whatever else it says. */
  minRelevance: 0.35,
  /** A contradiction needs the sentence to share at least this much of the fact's terms. */
  contradictionCoverage: 0.35,
  weights: { polarity: 0.55, direction: 0.55, antonym: 0.45, figure: 0.6, year: 0.25, falsity: 0.5 },
  hedgeFactor: 0.7,
  figureMatchBonus: 0.25,
  yearMatchBonus: 0.1,
  /**
   * Share of the fact's named things the sentence must name to support it. 0 on the benchmark's
   * evidence, where sentences often stand on their own without repeating the claim's names; the
   * missing names still lower the sentence's coverage.
   */
  entityShare: 0,
  /** Whether a sentence must state the fact's year to support it. */
  yearMustMatch: false,
};

/** Share of the fact's content terms other than its names that the sentence contains (1 when it has none). */
function predicateCoverage(fact: TextAnalysis, sentence: TextAnalysis): number {
  const present = new Set(sentence.tokens);
  const predicate = [...fact.terms.keys()].filter((t) => !fact.entities.has(t));
  return predicate.length === 0 ? 1 : predicate.filter((t) => present.has(t)).length / predicate.length;
}

function tokensOnlyIn(a: TextAnalysis, b: TextAnalysis): Set<string> {
  const other = new Set(b.tokens);
  return new Set(a.tokens.filter((t) => !other.has(t)));
}

function directionsOf(tokens: Set<string>): Set<keyof typeof DIRECTION> {
  const out = new Set<keyof typeof DIRECTION>();
  for (const token of tokens)
    for (const [name, set] of Object.entries(DIRECTION)) if (set.has(token)) out.add(name as keyof typeof DIRECTION);
  return out;
}

/** Direction words the two do not share, and that point different ways. */
function directionConflict(fact: TextAnalysis, sentence: TextAnalysis): boolean {
  const factOwn = directionsOf(tokensOnlyIn(fact, sentence));
  const sentenceOwn = directionsOf(tokensOnlyIn(sentence, fact));
  if (factOwn.size === 0 || sentenceOwn.size === 0) return false;
  for (const d of factOwn) if (sentenceOwn.has(d)) return false;
  return true;
}

function antonymConflict(fact: TextAnalysis, sentence: TextAnalysis): string | null {
  const factOwn = tokensOnlyIn(fact, sentence);
  const sentenceOwn = tokensOnlyIn(sentence, fact);
  for (const [a, b] of ANTONYMS) {
    if ((factOwn.has(a) && sentenceOwn.has(b)) || (factOwn.has(b) && sentenceOwn.has(a))) return `${a}/${b}`;
  }
  return null;
}

function figures(fact: TextAnalysis, sentence: TextAnalysis): { matched: number; mismatched: number } {
  let matched = 0;
  let mismatched = 0;
  for (const q of fact.quantities) {
    const comparable = sentence.quantities.filter((s) => sameKind(q, s));
    if (comparable.length === 0) continue;
    if (comparable.some((s) => agree(q, s))) matched++;
    else mismatched++;
  }
  return { matched, mismatched };
}

function years(fact: TextAnalysis, sentence: TextAnalysis): 'match' | 'mismatch' | 'none' {
  if (fact.years.length === 0 || sentence.years.length === 0) return 'none';
  return fact.years.some((y) => sentence.years.includes(y)) ? 'match' : 'mismatch';
}

const CONTRAST = /(?:,\s*|\s+)(?:however|but|although|though|yet|except|nevertheless|nonetheless|whereas)\b|;\s*/i;

/**
 * "X rose in 2013, but the long-term trend is down": the head supports the fact and the tail
 * states what the fact leaves out, pointing the other way. Returns the head's support marked as
 * qualifying, or null when the sentence is not built that way.
 */
function qualifiedSupport(input: StanceInput, rules: typeof STANCE_RULES): StanceJudgement | null {
  const match = CONTRAST.exec(input.sentence.text);
  if (!match || match.index < 15) return null;
  const head = analyse(input.sentence.text.slice(0, match.index));
  const tail = analyse(input.sentence.text.slice(match.index + match[0].length));
  if (tail.tokens.length < 3) return null;
  const judged = judgeByRules({ ...input, sentence: head, coverage: termCoverage(input.fact, head) }, rules, false);
  if (judged.stance !== 'supports') return null;
  const turns =
    directionConflict(input.fact, tail) ||
    antonymConflict(input.fact, tail) !== null ||
    (input.fact.negations % 2 !== tail.negations % 2 && termCoverage(input.fact, tail) >= 0.2);
  return turns ? { ...judged, reasons: [...judged.reasons, QUALIFIES] } : null;
}

export function judgeByRules(input: StanceInput, rules = STANCE_RULES, lookForQualifier = true): StanceJudgement {
  const { fact, sentence, coverage, relevance } = input;
  if (lookForQualifier && sentence.contrast && relevance >= rules.minRelevance) {
    const qualified = qualifiedSupport(input, rules);
    if (qualified) return qualified;
  }
  if (relevance < rules.minRelevance) return { stance: 'unrelated', strength: 0, reasons: ['not about the fact'] };
  const reasons: string[] = [];
  let against = 0;
  const w = rules.weights;
  const fig = figures(fact, sentence);
  const year = years(fact, sentence);
  if (coverage >= rules.contradictionCoverage) {
    if (fact.negations % 2 !== sentence.negations % 2)
      (against += w.polarity), reasons.push(fact.negations % 2 ? FACT_NEGATED : EVIDENCE_NEGATED);
    if (directionConflict(fact, sentence)) (against += w.direction), reasons.push(OTHER_DIRECTION);
    const antonym = antonymConflict(fact, sentence);
    if (antonym) (against += w.antonym), reasons.push(`${OPPOSITE_WORDS} (${antonym})`);
    if (sentence.callsFalse && !fact.callsFalse) (against += w.falsity), reasons.push(CALLS_FALSE);
  }
  if (fig.mismatched > 0 && fig.matched === 0) (against += w.figure), reasons.push(FIGURE_DIFFERS);
  // A different year contradicts only a sentence that states the same thing (every content word of the fact but its
  // names).
  if (year === 'mismatch' && predicateCoverage(fact, sentence) >= 1) (against += w.year), reasons.push(YEAR_DIFFERS);
  const hedge = sentence.hedged ? rules.hedgeFactor : 1;
  if (sentence.hedged) reasons.push(HEDGED);

  if (against > 0) {
    return { stance: 'contradicts', strength: round(Math.min(1, against) * relevance * hedge), reasons };
  }
  const entityShare =
    fact.entities.size === 0
      ? 1
      : [...fact.entities].filter((e) => sentence.tokens.includes(e)).length / fact.entities.size;
  if (entityShare < rules.entityShare)
    return { stance: 'unrelated', strength: 0, reasons: [...reasons, 'does not name what the fact is about'] };
  // A sentence cannot confirm a figure or a year it does not state.
  if (fact.quantities.length > 0 && fig.matched === 0)
    return { stance: 'unrelated', strength: 0, reasons: [...reasons, 'does not state the figure'] };
  if (rules.yearMustMatch && fact.years.length > 0 && year !== 'match')
    return { stance: 'unrelated', strength: 0, reasons: [...reasons, 'does not state the year'] };
  let strength = relevance;
  if (fig.matched > 0) (strength += rules.figureMatchBonus), reasons.push('the same figure');
  if (year === 'match') (strength += rules.yearMatchBonus), reasons.push('the same year');
  return { stance: 'supports', strength: round(Math.min(1, strength) * hedge), reasons };
}
