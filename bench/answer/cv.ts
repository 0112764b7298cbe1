/**
 * The answer bench's per-question results under the evaluation protocol
 * (bench/protocol, docs/benchmarks.md): questions dealt into 5 folds by a
 * hash of the question text (a control shares its question's fold), a final
 * fold set aside the same way. The answer ranker fits nothing in the bench,
 * so each system's procedure ignores its training folds: the spread over
 * folds says how much a figure moves with the questions drawn.
 */
import { crossValidate, scoreFinalFold, type Procedure } from '../protocol/cross-validate.js';
import { splitForEvaluation } from '../protocol/folds.js';
import { cvLines, finalHint, finalLines } from '../protocol/report.js';

export interface AnsweredQuestion {
  question: string;
  control: boolean;
  /** Per system name: whether it quoted a gold sentence (asked) or abstained (control). */
  right: Record<string, boolean>;
  /** Per system name: whether its first citation is a gold page (asked questions). */
  cited: Record<string, boolean>;
}

export function reportAnswerCv(
  rows: readonly AnsweredQuestion[],
  systems: readonly string[],
  baseline: string,
  options: { final: boolean },
): void {
  const split = splitForEvaluation(rows, (r) => r.question);
  // Nothing is fitted: each system's answer is read off the row, for one of its judgements.
  const readOff = (judged: 'right' | 'cited'): Procedure<AnsweredQuestion, boolean>[] =>
    systems.map((name) => ({ name, fit: () => (row) => row[judged][name] ?? false }));
  const share =
    (pick: (r: AnsweredQuestion) => boolean) => (items: readonly AnsweredQuestion[], right: readonly boolean[]) => {
      const chosen = items.map((r, i) => ({ r, ok: right[i]! })).filter(({ r }) => pick(r));
      return chosen.length === 0 ? 0 : chosen.filter((c) => c.ok).length / chosen.length;
    };
  const metrics = [
    ['answer cites the gold page first (asked questions)', share((r) => !r.control), readOff('cited')],
    ['answer quotes a gold sentence (asked questions)', share((r) => !r.control), readOff('right')],
    ['abstains (controls without their gold pages)', share((r) => r.control), readOff('right')],
  ] as const;
  for (const [title, metric, procedures] of metrics) {
    for (const line of cvLines(title, crossValidate(split.folds, procedures, metric), baseline)) console.log(line);
    if (options.final)
      for (const line of finalLines(title, scoreFinalFold(split, procedures, metric), baseline, split.final.length))
        console.log(line);
  }
  if (!options.final) console.log(finalHint());
}
