import { describe, expect, it } from 'vitest';
import { analyse } from './analysis.js';
import { coverageScores } from './coverage-scores.js';
import { lineConflicts, type ConflictKind } from './line-conflict.js';
import {
  OFFLINE_VERDICT,
  offlineVerdict,
  supportLevel,
  type GateFrom,
  type OfflineVerdictRule,
} from './offline-verdict.js';
import type { VerdictOutcome } from './aggregate.js';
import { lineOverlap, linesOf } from './word-overlap.js';

const claimText = 'Marta Okafor has edited the Lakeside Courier since 2015 and founded its poetry prize';
const claim = analyse(claimText);
const lines = [
  'Home | News | Sport | Weather',
  'Marta Okafor has edited the Lakeside Courier since 2015.',
  'The Courier, a weekly newspaper, was founded in 1921.',
];
const sentences = lines.map(analyse);

const outcome = (verdict: VerdictOutcome['verdict']): VerdictOutcome => ({ verdict, facts: [], strength: 0.9 });

describe('coverage scores', () => {
  it('count the share of the claim its best sentences state', () => {
    const scores = coverageScores(claim, sentences, [{ coverage: 0.6, parts: [1, 0.2] }], 0.5);
    // marta, okafor, edit, lakeside, courier, since of those and found, poetry, prize.
    expect(scores.best_sentence_overlap).toBeCloseTo(6 / 9, 2);
    expect(scores.best_two_cover).toBeGreaterThan(scores.best_sentence_overlap);
    expect(scores.fact_grade).toBe(0.6);
    expect(scores.line_overlap).toBe(0.5);
    const none = coverageScores(claim, [analyse('Heavy rain is expected this weekend.')], [], 0);
    expect(none.best_sentence_overlap).toBe(0);
  });
});

describe('word overlap of the best line (the two-line rule)', () => {
  it("is the unstemmed share of the claim's content words in its best line, and names the line", () => {
    const best = lineOverlap(claimText, linesOf(`${lines.join('\n\n')}\n`));
    // marta okafor edited lakeside courier since 2015 of: marta okafor edited lakeside courier since 2015 founded
    // poetry prize ("founded" is in the third line, not the best one).
    expect(best.line).toBe(lines[1]);
    expect(best.score).toBeCloseTo(7 / 10, 5);
    expect(lineOverlap(claimText, ['Heavy rain is expected this weekend.'])).toEqual({ score: 0, line: null });
    expect(lineOverlap('the of and', lines)).toEqual({ score: 0, line: null });
  });
});

describe('conflicts of the best line', () => {
  it('finds a negation, a different figure, opposite directions and a qualifier; nothing in a restatement', () => {
    const ice = 'Arctic sea ice extent has declined since 1979';
    expect(lineConflicts(ice, 'Arctic sea ice extent has not declined since 1979.')).toEqual(['negation']);
    expect(lineConflicts('The bridge is 450 metres long', 'The bridge is 320 metres long.')).toEqual(['figure']);
    expect(lineConflicts(ice, 'Arctic sea ice extent has increased since 1979.')).toContain('direction');
    expect(
      lineConflicts(
        'Arctic sea ice grew in 2013',
        'Arctic sea ice grew in 2013, but the long-term trend is a steep decline in sea ice.',
      ),
    ).toEqual(['qualifier']);
    expect(lineConflicts(ice, 'Arctic sea ice extent has declined since 1979.')).toEqual([]);
    expect(lineConflicts(ice, null)).toEqual([]);
  });
});

describe('offline verdict', () => {
  const rule = (gate: OfflineVerdictRule['gate'], gateFrom: GateFrom = 'partially_supported'): OfflineVerdictRule => ({
    score: 'line_overlap',
    low: 0.2,
    high: 0.55,
    gate,
    gateFrom,
  });
  const evidence = (value: number, conflicts: ConflictKind[] = []) => ({
    scores: { line_overlap: value, best_sentence_overlap: 0, best_two_cover: 0, fact_grade: 0, cover_and_grade: 0 },
    conflicts,
  });

  it('grades the claim by its coverage: true, partially_true, or unverifiable when the pages do not bear on it', () => {
    expect(offlineVerdict(outcome('partially_true'), evidence(0.8), rule('none')).verdict).toBe('true');
    expect(offlineVerdict(outcome('true'), evidence(0.4), rule('none')).verdict).toBe('partially_true');
    expect(offlineVerdict(outcome('partially_true'), evidence(0.1), rule('none'))).toMatchObject({
      verdict: 'unverifiable',
      strength: 0.1,
    });
  });

  it('without a gate, never lets a contradiction through', () => {
    expect(offlineVerdict(outcome('false'), evidence(0.9, ['negation']), rule('none')).verdict).toBe('true');
  });

  it("lets the stance rules' false and misleading stand on a claim the pages bear on (or always)", () => {
    expect(offlineVerdict(outcome('false'), evidence(0.9), rule('stance_rules')).verdict).toBe('false');
    expect(offlineVerdict(outcome('misleading'), evidence(0.4), rule('stance_rules')).verdict).toBe('misleading');
    expect(offlineVerdict(outcome('false'), evidence(0.1), rule('stance_rules')).verdict).toBe('unverifiable');
    expect(offlineVerdict(outcome('false'), evidence(0.1), rule('stance_rules_always')).verdict).toBe('false');
  });

  it("turns a supported claim false on the gate's kind of conflict in its best line, misleading on a qualifier", () => {
    expect(offlineVerdict(outcome('true'), evidence(0.9, ['figure']), rule('best_line_figure')).verdict).toBe('false');
    expect(offlineVerdict(outcome('true'), evidence(0.9, ['figure']), rule('best_line_negation')).verdict).toBe('true');
    expect(offlineVerdict(outcome('true'), evidence(0.9, ['qualifier']), rule('best_line_any')).verdict).toBe(
      'misleading',
    );
    expect(offlineVerdict(outcome('true'), evidence(0.1, ['negation']), rule('best_line_any')).verdict).toBe(
      'unverifiable',
    );
  });

  it('applies a gate from supported only when told to', () => {
    const late = rule('stance_rules', 'supported');
    expect(offlineVerdict(outcome('false'), evidence(0.4), late).verdict).toBe('partially_true');
    expect(offlineVerdict(outcome('false'), evidence(0.9), late).verdict).toBe('false');
  });

  it('ships a fitted rule with ordered thresholds', () => {
    expect(OFFLINE_VERDICT.low).toBeLessThanOrEqual(OFFLINE_VERDICT.high);
    expect(supportLevel(OFFLINE_VERDICT.high, OFFLINE_VERDICT)).toBe('supported');
    expect(supportLevel(OFFLINE_VERDICT.low, OFFLINE_VERDICT)).toBe('partially_supported');
  });
});
