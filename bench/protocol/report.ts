/**
 * How every quality bench prints cross-validated figures: mean ± spread over
 * folds, the range, each fold, and the ratio to the baseline fitted the same
 * way in the same run; the final fold only when asked for (`--final`), once
 * per change, after the choices are made.
 */
import type { FoldFigures } from './cross-validate.js';

export const FINAL_FLAG = '--final';

export function finalRequested(args: readonly string[] = process.argv.slice(2)): boolean {
  return args.includes(FINAL_FLAG);
}

const fixed = (value: number, digits: number) => value.toFixed(digits);

/** One line per procedure; `baseline` names the row every ratio divides by. */
export function cvLines(title: string, figures: readonly FoldFigures[], baseline: string, digits = 3): string[] {
  const base = figures.find((f) => f.name === baseline);
  const width = Math.max(12, ...figures.map((f) => f.name.length)) + 2;
  const lines = [
    `${title} — ${figures[0]?.perFold.length ?? 0}-fold CV, each fold scored with what was chosen on the others`,
  ];
  lines.push(
    `  ${'system'.padEnd(width)}${'mean ± spread'.padStart(16)}${'min–max'.padStart(14)}${`÷ ${baseline}`.padStart(Math.max(10, baseline.length + 4))}   per fold`,
  );
  for (const f of figures) {
    const ratio = base && base.mean > 0 ? fixed(f.mean / base.mean, 2) : '-';
    lines.push(
      `  ${f.name.padEnd(width)}${`${fixed(f.mean, digits)} ± ${fixed(f.spread, digits)}`.padStart(16)}${`${fixed(f.min, digits)}–${fixed(f.max, digits)}`.padStart(14)}${ratio.padStart(Math.max(10, baseline.length + 4))}   ${f.perFold.map((v) => fixed(v, digits)).join(' ')}`,
    );
  }
  return lines;
}

export function finalLines(
  title: string,
  figures: ReadonlyArray<{ name: string; figure: number }>,
  baseline: string,
  size: number,
  digits = 3,
): string[] {
  const base = figures.find((f) => f.name === baseline)?.figure ?? 0;
  const width = Math.max(12, ...figures.map((f) => f.name.length)) + 2;
  return [
    `${title} — final fold (${size} items set aside by hash; fitted on all CV folds; never used to choose)`,
    ...figures.map(
      (f) =>
        `  ${f.name.padEnd(width)}${fixed(f.figure, digits).padStart(8)}${(base > 0 ? fixed(f.figure / base, 2) : '-').padStart(8)}`,
    ),
  ];
}

export function finalHint(): string {
  return `(final fold not read: pass ${FINAL_FLAG} once, after choosing; see docs/benchmarks.md)`;
}
