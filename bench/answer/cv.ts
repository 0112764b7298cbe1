/**
 * The answer bench's per-question results under the evaluation protocol
 * (bench/protocol, docs/benchmarks.md): questions dealt into 5 folds by a
 * hash of the question text (a control shares its question's fold), a final
 * fold set aside the same way.
 *
 * Procedures: "fitted choice" fits the page choice and answering models
 * (choice-fit.ts, what data/answer-choice.json ships) on the training folds
 * and decides each held-out question from its pages' evidence; "quarry as
 * shipped" and "first result" are read off the end-to-end run and fit
 * nothing (the shipped model was fitted on all CV folds, so its CV row is
 * in-sample and shown only for the check that the bench's evidence is the
 * product's).
 */
import { crossValidate, scoreFinalFold, type Procedure } from '../protocol/cross-validate.js';
import { splitForEvaluation } from '../protocol/folds.js';
import { cvLines, finalHint, finalLines } from '../protocol/report.js';
import { decide, fitAnswerChoice, type ChoiceQuestion } from './choice-fit.js';

export interface AnsweredQuestion {
  question: string;
  control: boolean;
  /** Per end-to-end system name: whether it quoted a gold sentence (asked) or abstained (control). */
  right: Record<string, boolean>;
  /** Per end-to-end system name: whether its first citation is a gold page (asked questions). */
  cited: Record<string, boolean>;
  /** Per end-to-end system name: the page it quotes or would have quoted is gold (asked questions). */
  lead: Record<string, boolean>;
  /** Each page's evidence as the product computes it, with its gold flags. */
  choice: ChoiceQuestion;
  /** Per page (same order as choice.pages): the answer it would lead quotes a gold sentence. */
  sentenceGold: boolean[];
}

interface Decision {
  cited: boolean;
  right: boolean;
  /** The page it would quote is gold, whether or not it then answers (asked questions). */
  lead: boolean;
}

export const FITTED = 'fitted choice';

export function fittedProcedure(): Procedure<AnsweredQuestion, Decision> {
  return {
    name: FITTED,
    fit(train) {
      const model = fitAnswerChoice(train.map((r) => r.choice));
      return (row) => {
        const choice = decide(model, row.choice);
        const at = row.choice.pages.findIndex((p) => p.citation === choice.citation);
        const cited = choice.answered && at >= 0 && row.choice.gold[at] === true;
        const right = row.control ? !choice.answered : choice.answered && at >= 0 && row.sentenceGold[at] === true;
        return { cited, right, lead: at >= 0 && row.choice.gold[at] === true };
      };
    },
  };
}

export function reportAnswerCv(
  rows: readonly AnsweredQuestion[],
  systems: readonly string[],
  baseline: string,
  options: { final: boolean },
): void {
  const split = splitForEvaluation(rows, (r) => r.question);
  // The end-to-end systems fit nothing: their decisions are read off the row.
  const readOff: Procedure<AnsweredQuestion, Decision>[] = systems.map((name) => ({
    name,
    fit: () => (row) => ({
      cited: row.cited[name] ?? false,
      right: row.right[name] ?? false,
      lead: row.lead[name] ?? false,
    }),
  }));
  const procedures = [fittedProcedure(), ...readOff];
  const share =
    (pick: (r: AnsweredQuestion) => boolean, judged: keyof Decision) =>
    (items: readonly AnsweredQuestion[], decisions: readonly Decision[]) => {
      const chosen = items.map((r, i) => ({ r, ok: decisions[i]![judged] })).filter(({ r }) => pick(r));
      return chosen.length === 0 ? 0 : chosen.filter((c) => c.ok).length / chosen.length;
    };
  const metrics = [
    ['answer cites the gold page first (asked questions)', share((r) => !r.control, 'cited')],
    ['answer quotes a gold sentence (asked questions)', share((r) => !r.control, 'right')],
    ['abstains (controls without their gold pages)', share((r) => r.control, 'right')],
    ['the page chosen to quote is gold, answered or not (asked questions)', share((r) => !r.control, 'lead')],
  ] as const;
  for (const [title, metric] of metrics) {
    for (const line of cvLines(title, crossValidate(split.folds, procedures, metric), baseline)) console.log(line);
    if (options.final)
      for (const line of finalLines(title, scoreFinalFold(split, procedures, metric), baseline, split.final.length))
        console.log(line);
  }
  if (!options.final) console.log(finalHint());
}

/** The CV folds' rows (the final fold left out): what the shipped model is fitted on. */
export function cvRows<T extends { question: string }>(rows: readonly T[]): T[] {
  return splitForEvaluation(rows, (r) => r.question).folds.flat();
}
