/**
 * The offline verdict under the evaluation protocol (bench/protocol,
 * docs/benchmarks.md), on WiCE and Climate-FEVER together, since one default
 * ships for both: each set's claims dealt into 5 folds stratified by label, a
 * final fold set aside by a hash of the claim id. Fold f of both sets is held
 * out together; every offline-verdict procedure (offline-procedure.ts) is fitted
 * on the other four folds of both and scored on fold f of each. Each set's
 * baselines are fitted on its own training folds. The final fold only with --final.
 */
import { crossValidate, scoreFinalFold, summarise, type FoldFigures } from '../protocol/cross-validate.js';
import { splitForEvaluation, type EvaluationSplit } from '../protocol/folds.js';
import { cvLines, finalHint, finalLines } from '../protocol/report.js';
import { printConfusion } from './metrics.js';
import {
  climateMacroF1,
  climateMajority,
  climateOverlap,
  decideClimate,
  decideWice,
  goldOfClimate,
  goldOfWice,
  handSetRules,
  idOfRow,
  majority,
  RULE_PROCEDURES,
  THE_RULE,
  wiceMacroF1,
  wordOverlap,
  type RuleProcedure,
} from './offline-procedure.js';
import { WICE_LABELS } from './wice-dataset.js';
import type { ClimateRow, WiceRow } from './wice-rows.js';

export interface OfflineSplits {
  wice: EvaluationSplit<WiceRow>;
  climate: EvaluationSplit<ClimateRow>;
}

export function splitBoth(wice: readonly WiceRow[], climate: readonly ClimateRow[]): OfflineSplits {
  return {
    wice: splitForEvaluation(wice, idOfRow, { stratum: goldOfWice }),
    climate: splitForEvaluation(climate, idOfRow, { stratum: goldOfClimate }),
  };
}

const others = <T>(folds: readonly T[][], f: number): T[] => folds.filter((_, g) => g !== f).flat();

/** Each rule procedure's WiCE and Climate-FEVER figures per fold, fitted on both sets' other folds. */
export function crossValidateRules(
  splits: OfflineSplits,
  procedures: readonly RuleProcedure[],
): Array<{ wice: FoldFigures; climate: FoldFigures }> {
  return procedures.map((p) => {
    const wice: number[] = [];
    const climate: number[] = [];
    splits.wice.folds.forEach((test, f) => {
      const rule = p.fit(others(splits.wice.folds, f), others(splits.climate.folds, f));
      const climateTest = splits.climate.folds[f]!;
      wice.push(
        wiceMacroF1(
          test,
          test.map((r) => decideWice(r, rule)),
        ),
      );
      climate.push(
        climateMacroF1(
          climateTest,
          climateTest.map((r) => decideClimate(r, rule)),
        ),
      );
    });
    return { wice: summarise(p.name, wice), climate: summarise(p.name, climate) };
  });
}

function finalOfRules(splits: OfflineSplits, procedures: readonly RuleProcedure[]) {
  return procedures.map((p) => {
    const rule = p.fit(splits.wice.folds.flat(), splits.climate.folds.flat());
    const [w, c] = [splits.wice.final, splits.climate.final];
    return {
      name: p.name,
      wice: wiceMacroF1(
        w,
        w.map((r) => decideWice(r, rule)),
      ),
      climate: climateMacroF1(
        c,
        c.map((r) => decideClimate(r, rule)),
      ),
      rule,
    };
  });
}

const signed = (v: number) => (v >= 0 ? '+' : '') + v.toFixed(3);

export function reportOfflineCv(splits: OfflineSplits, options: { final: boolean }): void {
  const rules = crossValidateRules(splits, RULE_PROCEDURES);
  const wiceBase = crossValidate(splits.wice.folds, [wordOverlap, majority, handSetRules], wiceMacroF1);
  const climateBase = crossValidate(splits.climate.folds, [climateOverlap, climateMajority], climateMacroF1);
  const wiceTitle = `WiCE three-class macro-F1, ${splits.wice.folds.flat().length} claims (pipeline called directly)`;
  for (const line of cvLines(wiceTitle, [...wiceBase, ...rules.map((r) => r.wice)], wordOverlap.name))
    console.log(line);
  console.log('');
  const climateTitle = `Climate-FEVER three-class macro-F1 (DISPUTED left out), ${splits.climate.folds.flat().length} claims; offline verdicts fitted on WiCE's training folds`;
  for (const line of cvLines(climateTitle, [...climateBase, ...rules.map((r) => r.climate)], climateOverlap.name))
    console.log(line);
  const [rule, chosen] = [rules[0]!, rules[1]!];
  console.log(
    `\n  chosen gate − the rule: WiCE ${signed(chosen.wice.mean - rule.wice.mean)}, Climate-FEVER ${signed(chosen.climate.mean - rule.climate.mean)} macro-F1 (means over folds)`,
  );
  console.log(
    `  (the hand-set rules' constants were set on even positions of WiCE, which lie in every fold: their figure is flattered)`,
  );
  const pooled = splits.wice.folds.flatMap((test, f) => {
    const fitted = THE_RULE.fit(others(splits.wice.folds, f), others(splits.climate.folds, f));
    return test.map((r) => ({ gold: r.claim.gold, predicted: decideWice(r, fitted) }));
  });
  printConfusion('WiCE, the rule, each claim decided by thresholds its training folds chose', pooled, WICE_LABELS);
  if (options.final) {
    const finals = finalOfRules(splits, RULE_PROCEDURES);
    const wiceFinal = scoreFinalFold(splits.wice, [wordOverlap, majority, handSetRules], wiceMacroF1);
    const climateFinal = scoreFinalFold(splits.climate, [climateOverlap, climateMajority], climateMacroF1);
    for (const line of [
      '',
      ...finalLines(
        'WiCE macro-F1',
        [...wiceFinal, ...finals.map((f) => ({ name: f.name, figure: f.wice }))],
        wordOverlap.name,
        splits.wice.final.length,
      ),
      '',
      ...finalLines(
        'Climate-FEVER macro-F1',
        [...climateFinal, ...finals.map((f) => ({ name: f.name, figure: f.climate }))],
        climateOverlap.name,
        splits.climate.final.length,
      ),
    ])
      console.log(line);
    for (const f of finals) console.log(`  fitted on all CV folds, ${f.name}: ${JSON.stringify(f.rule)}`);
  } else console.log(finalHint());
  console.log('');
}
