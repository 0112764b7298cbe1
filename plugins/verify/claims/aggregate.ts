/**
 * From judged evidence to a verdict (docs/verify.md, "Verdict"). Per fact,
 * support is the strongest supporting piece (wᵢ·sᵢ, wᵢ the source's
 * credibility weight: on a long page many half-relevant sentences must not
 * add up to one that states the fact), contradiction combines the best three
 * contradicting pieces as independent evidence (1 − Π(1 − wᵢ·sᵢ)). A fact
 * not contradicted is then graded by what its evidence reaches of it
 * (fact-parts.ts): the share of its terms its few best sentences hold
 * together, less a penalty for the share of its named things no page
 * mentions (mentions.ts). A high grade with every part of the fact in its
 * sentences is support, a middling one partial support; below that, some
 * support or one of its parts stated in full on the pages still makes it
 * partly supported. A sentence that contradicts only by another figure does
 * not count when the pages state the fact's own figures. Then:
 *
 *   central fact contradicted                             → false
 *   every fact supported, evidence qualifies one          → misleading
 *   central fact supported, another contradicted          → misleading
 *   every fact supported                                  → true
 *   some supported or partly supported, none contradicted → partially_true
 *   otherwise (no evidence, or only disputed)             → unverifiable
 */
import type { FactReach } from './fact-parts.js';
import type { Fact } from './facts.js';
import type { Unmentioned } from './mentions.js';
import type { Candidate } from './retrieval.js';
import { FIGURE_DIFFERS, HEDGED, QUALIFIES, YEAR_DIFFERS, type StanceJudgement } from './stance-rules.js';
import { roundConfidence as round } from '../../../core/rounding.js';

export type Verdict = 'true' | 'false' | 'partially_true' | 'unverifiable' | 'misleading';
export type FactStatus = 'supported' | 'partly_supported' | 'contradicted' | 'disputed' | 'no_evidence';

export interface JudgedCandidate extends Candidate {
  judgement: StanceJudgement;
  /** Credibility weight applied to this evidence. */
  weight: number;
}

export interface FactOutcome {
  fact: Fact;
  status: FactStatus;
  support: number;
  contradiction: number;
  evidence: JudgedCandidate[];
  /** A supporting sentence that also states a qualification the fact leaves out. */
  qualifier: JudgedCandidate | null;
}

export interface VerdictOutcome {
  verdict: Verdict;
  facts: FactOutcome[];
  /** Strength behind the verdict (0..1), the input of the confidence calibration. */
  strength: number;
}

export const AGGREGATION = {
  /** Strength a side needs for a fact to count as supported or contradicted. */
  supportThreshold: 0.55,
  contradictionThreshold: 0.4,
  /** Support short of the bar but at least this: part of the fact is on the pages. */
  partialThreshold: 0.4,
  /** A fact graded this high (share of its terms its evidence holds, less the penalties) is supported … */
  fullGrade: 0.66,
  /** … this high, partly supported. */
  partGrade: 0.5,
  /** A supported fact needs this share of every one of its parts in its best sentences. */
  partShare: 0.45,
  /** Grade lost by the share of the fact's named things no page mentions. */
  unmentionedNamePenalty: 0.4,
  /** A fact of several parts with one stated this fully is partly supported even without support. */
  fullPart: 0.8,
  /** A side wins a disputed fact when it is this many times the other. */
  dominance: 1.6,
  /** Contradicting pieces combined. */
  topEvidence: 3,
};

/** Credibility 0..1 → weight: an unrated source (0.5) counts 0.75, the best 1, the worst 0.5. */
export function credibilityWeight(credibility: number): number {
  return 0.5 + 0.5 * Math.max(0, Math.min(1, credibility));
}

function combine(values: number[], top: number): number {
  return (
    1 -
    values
      .sort((a, b) => b - a)
      .slice(0, top)
      .reduce((acc, v) => acc * (1 - v), 1)
  );
}

/**
 * A sentence that contradicts only by stating another figure, when the pages also state the
 * fact's own figures: on a long page, another count or date is most often about something else.
 */
function otherFigureOnly(fact: Fact, evidence: JudgedCandidate, missing: Unmentioned): boolean {
  const reasons = evidence.judgement.reasons.filter((r) => r !== HEDGED);
  const figureOnly = reasons.length > 0 && reasons.every((r) => r === FIGURE_DIFFERS || r === YEAR_DIFFERS);
  return figureOnly && fact.analysis.quantities.length + fact.analysis.years.length > 0 && missing.figures.length === 0;
}

/** How fully the evidence bears out the fact, 0..1 (the module comment). */
export function gradeOf(reach: FactReach, rules = AGGREGATION): number {
  return Math.max(0, reach.coverage - rules.unmentionedNamePenalty * (reach.unmentioned?.nameShare ?? 0));
}

/**
 * `reach`: what the evidence sentences hold of the fact (fact-parts.ts); without it, support alone decides.
 * `judgedByModel`: a model (LLM or NLI) read the sentences; then the grade can only lower its
 * support to partial, never turn "nothing states it" into support.
 */
export function factOutcome(
  fact: Fact,
  evidence: JudgedCandidate[],
  rules = AGGREGATION,
  reach: FactReach | null = null,
  judgedByModel = false,
): FactOutcome {
  const supporting = evidence.filter((e) => e.judgement.stance === 'supports');
  const contradicting = evidence.filter(
    (e) => e.judgement.stance === 'contradicts' && !(reach?.unmentioned && otherFigureOnly(fact, e, reach.unmentioned)),
  );
  const support = Math.max(0, ...supporting.map((e) => e.weight * e.judgement.strength));
  const contradiction = combine(
    contradicting.map((e) => e.weight * e.judgement.strength),
    rules.topEvidence,
  );
  const supported = support >= rules.supportThreshold;
  const contradicted = contradiction >= rules.contradictionThreshold;
  let status: FactStatus = 'no_evidence';
  if (supported && contradicted) {
    status =
      support >= rules.dominance * contradiction
        ? 'supported'
        : contradiction >= rules.dominance * support
          ? 'contradicted'
          : 'disputed';
  } else if (supported) status = 'supported';
  else if (contradicted) status = 'contradicted';
  if (reach && (status === 'supported' || (status === 'no_evidence' && !judgedByModel))) {
    const grade = gradeOf(reach, rules);
    const whole = grade >= rules.fullGrade && Math.min(...reach.parts) >= rules.partShare;
    status = whole ? 'supported' : grade >= rules.partGrade || judgedByModel ? 'partly_supported' : 'no_evidence';
  }
  if (
    status === 'no_evidence' &&
    (support >= rules.partialThreshold ||
      (reach && reach.parts.length > 1 && Math.max(...reach.parts) >= rules.fullPart))
  )
    status = 'partly_supported';
  const qualifier =
    status === 'supported' ? (supporting.find((e) => e.judgement.reasons.includes(QUALIFIES)) ?? null) : null;
  return { fact, status, support: round(support), contradiction: round(contradiction), evidence, qualifier };
}

export function decideVerdict(outcomes: FactOutcome[]): VerdictOutcome {
  const central = outcomes.find((o) => o.fact.central) ?? outcomes[0]!;
  const others = outcomes.filter((o) => o !== central);
  const all = (status: FactStatus) => outcomes.every((o) => o.status === status);
  let verdict: Verdict;
  let strength: number;
  if (central.status === 'contradicted') {
    verdict = 'false';
    strength = central.contradiction - central.support / 2;
  } else if (central.status === 'supported' && others.some((o) => o.status === 'contradicted')) {
    verdict = 'misleading';
    strength = Math.min(central.support, Math.max(...others.map((o) => o.contradiction)));
  } else if (all('supported') && outcomes.some((o) => o.qualifier)) {
    verdict = 'misleading';
    strength = Math.min(...outcomes.map((o) => o.support)) * 0.8;
  } else if (all('supported')) {
    verdict = 'true';
    strength = Math.min(...outcomes.map((o) => o.support)) - central.contradiction / 2;
  } else if (
    outcomes.some((o) => o.status === 'supported' || o.status === 'partly_supported') &&
    !outcomes.some((o) => o.status === 'contradicted')
  ) {
    verdict = 'partially_true';
    strength =
      (outcomes.filter((o) => o.status === 'supported').length / outcomes.length) *
      Math.max(...outcomes.map((o) => o.support));
  } else {
    verdict = 'unverifiable';
    // How close the evidence came to settling the claim: low when the pages do not mention it.
    strength = Math.max(...outcomes.map((o) => Math.max(o.support, o.contradiction)), 0);
  }
  return { verdict, facts: outcomes, strength: round(Math.max(0, Math.min(1, strength))) };
}
