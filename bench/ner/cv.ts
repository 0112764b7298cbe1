/**
 * The NER sets scored under the evaluation protocol (bench/protocol,
 * docs/benchmarks.md): wikigold, BTC and WNUT documents together, dealt into
 * 5 folds by a hash of "set:index", a final fold set aside the same way.
 * Nothing here is fitted per fold — the tagger is trained once on its own
 * training data (npm run train:ner), compromise not at all — so each
 * "procedure" ignores its training folds and the spread over folds says how
 * much the figure moves with the documents drawn.
 */
import { tagsToSpans, type SpanType, type TokenSpan } from '../../services/entities/spans.js';
import { crossValidate, scoreFinalFold, type Procedure } from '../protocol/cross-validate.js';
import { splitForEvaluation } from '../protocol/folds.js';
import { cvLines, finalHint, finalLines } from '../protocol/report.js';
import type { Document } from './datasets.js';
import { count, emptyCounts, score, SCORED } from './score.js';

export interface NerDocument {
  id: string;
  document: Document;
}

type Tagger = (sentences: readonly (readonly string[])[]) => TokenSpan[][];

function f1Of(type: SpanType | null) {
  return (docs: readonly NerDocument[], predicted: readonly TokenSpan[][][]) => {
    const counts = emptyCounts();
    docs.forEach((doc, d) =>
      doc.document.forEach((s, i) => count(counts, tagsToSpans(s.tags), predicted[d]![i]!, type ?? undefined)),
    );
    return score(counts).f1;
  };
}

export function reportNerCv(
  documents: readonly NerDocument[],
  systems: Record<string, Tagger>,
  options: { final: boolean },
): void {
  const split = splitForEvaluation(documents, (d) => d.id);
  const names = Object.keys(systems);
  const memo = new Map<string, TokenSpan[][]>();
  const procedures: Procedure<NerDocument, TokenSpan[][]>[] = names.map((name) => ({
    name,
    fit: () => (doc) => {
      const key = `${name}\u0000${doc.id}`;
      if (!memo.has(key)) memo.set(key, systems[name]!(doc.document.map((s) => s.words)));
      return memo.get(key)!;
    },
  }));
  const sentences = split.folds.flat().reduce((n, d) => n + d.document.length, 0);
  console.log(
    `\n## Cross-validated (wikigold + BTC + WNUT together): ${split.folds.flat().length} documents, ${sentences} sentences; F1, 5 folds`,
  );
  for (const type of [null, ...SCORED]) {
    for (const line of cvLines(
      type ? `${type} F1` : 'micro F1 (PER/ORG/LOC)',
      crossValidate(split.folds, procedures, f1Of(type)),
      names[1]!,
    ))
      console.log(line);
    if (options.final)
      for (const line of finalLines(
        type ? `${type} F1` : 'micro F1',
        scoreFinalFold(split, procedures, f1Of(type)),
        names[1]!,
        split.final.length,
      ))
        console.log(line);
  }
  if (!options.final) console.log(finalHint());
}
