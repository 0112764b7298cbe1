/**
 * The NER pool scored under the evaluation protocol (bench/protocol,
 * docs/benchmarks.md): wikigold, BTC and WNUT documents together, dealt into
 * 5 folds by a hash of their ids, a final fold set aside the same way. The
 * Quarry tagger is trained per fold (bench/ner/fit.ts: the training folds →
 * a model → the held-out fold), exactly as `npm run train:ner` trains the
 * shipped one on all five; compromise fits nothing.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { Gazetteer } from '../../services/entities/gazetteer.js';
import { MODEL_DIR, MODEL_FILE } from '../../services/entities/recognizer.js';
import { tagsToSpans, type SpanType, type TokenSpan } from '../../services/entities/spans.js';
import { crossValidate, scoreFinalFold, type Procedure } from '../protocol/cross-validate.js';
import { splitForEvaluation, type EvaluationSplit } from '../protocol/folds.js';
import { cvLines, finalHint, finalLines } from '../protocol/report.js';
import { setOf, type Document, type NerDocument } from './datasets.js';
import { fitNerModel, recognizerOf } from './fit.js';
import { count, emptyCounts, score, SCORED, type Counts } from './score.js';

export type Tagger = (sentences: readonly (readonly string[])[]) => TokenSpan[][];

export const QUARRY = 'Quarry tagger (trained in training folds)';
export const BASELINE = 'compromise 14.17.0';

export function nerSplit(pool: readonly NerDocument[]): EvaluationSplit<NerDocument> {
  return splitForEvaluation(pool, (d) => d.id);
}

function f1Of(type: SpanType | null) {
  return (docs: readonly NerDocument[], predicted: readonly TokenSpan[][][]) => {
    const counts = emptyCounts();
    docs.forEach((doc, d) =>
      doc.document.forEach((s, i) => count(counts, tagsToSpans(s.tags), predicted[d]![i]!, type ?? undefined)),
    );
    return score(counts).f1;
  };
}

/** What one fit took and chose, for the report. */
export interface FitRecord {
  fold: string;
  epochs: number;
  trainSeconds: number;
  tagMs: number;
  /** The model as the training script writes it (compared with the shipped file after the final fit). */
  serialized: string;
}

/**
 * The Quarry procedure: trains on the training folds, tags the held-out documents. Fits are remembered by the fold
 * held out, so the per-type metrics (each a crossValidate call) and the per-set table share one training per fold.
 */
function quarryProcedure(gazetteer: Gazetteer, extra: readonly Document[], records: FitRecord[]) {
  const fits = new Map<string, Tagger>();
  // Each document is tagged by one fit only (the one that held it out, or the final fit for the final fold).
  const tagged = new Map<NerDocument, TokenSpan[][]>();
  return (foldName: (train: readonly NerDocument[]) => string): Procedure<NerDocument, TokenSpan[][]> => ({
    name: QUARRY,
    fit: (train) => {
      const key = foldName(train);
      let tag = fits.get(key);
      if (!tag) {
        const started = performance.now();
        // Progress on stderr: a fold's training takes minutes on a shared machine.
        const fit = fitNerModel(train, gazetteer, { extra, log: (line) => process.stderr.write(`[${key}] ${line}\n`) });
        const recognizer = recognizerOf(fit, gazetteer);
        const record: FitRecord = {
          fold: key,
          epochs: fit.epochs,
          trainSeconds: (performance.now() - started) / 1000,
          tagMs: 0,
          serialized: JSON.stringify(fit.model),
        };
        records.push(record);
        tag = (sentences) => {
          const at = performance.now();
          const spans = recognizer.tagWords(sentences);
          record.tagMs += performance.now() - at;
          return spans;
        };
        fits.set(key, tag);
      }
      return (doc) => {
        if (!tagged.has(doc)) tagged.set(doc, tag!(doc.document.map((s) => s.words)));
        return tagged.get(doc)!;
      };
    },
  });
}

const fixedProcedure = (name: string, tagger: Tagger): Procedure<NerDocument, TokenSpan[][]> => {
  const memo = new Map<NerDocument, TokenSpan[][]>();
  return {
    name,
    fit: () => (doc) => {
      if (!memo.has(doc)) memo.set(doc, tagger(doc.document.map((s) => s.words)));
      return memo.get(doc)!;
    },
  };
};

const pct = (value: number) => (value * 100).toFixed(1);

/** Per set, the out-of-fold predictions pooled (each document tagged by the model that did not train on it). */
function perSetLines(
  split: EvaluationSplit<NerDocument>,
  procedures: readonly Procedure<NerDocument, TokenSpan[][]>[],
): string[] {
  const lines = [
    '\n### Per set, out-of-fold (each document tagged by the model of the fold it was held out from), %',
    '| set | system | micro P | micro R | micro F1 | PER F1 | ORG F1 | LOC F1 | gold |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const procedure of procedures) {
    const counts = new Map<string, { all: Counts; byType: Record<string, Counts> }>();
    split.folds.forEach((held, f) => {
      const decide = procedure.fit(split.folds.filter((_, g) => g !== f).flat());
      for (const doc of held) {
        const set = setOf(doc);
        if (!counts.has(set))
          counts.set(set, { all: emptyCounts(), byType: Object.fromEntries(SCORED.map((t) => [t, emptyCounts()])) });
        const entry = counts.get(set)!;
        const predicted = decide(doc);
        doc.document.forEach((s, i) => {
          count(entry.all, tagsToSpans(s.tags), predicted[i]!);
          for (const type of SCORED) count(entry.byType[type]!, tagsToSpans(s.tags), predicted[i]!, type);
        });
      }
    });
    for (const [set, entry] of [...counts].sort()) {
      const micro = score(entry.all);
      const types = SCORED.map((t) => pct(score(entry.byType[t]!).f1)).join(' | ');
      lines.push(
        `| ${set} | ${procedure.name} | ${pct(micro.precision)} | ${pct(micro.recall)} | **${pct(micro.f1)}** | ${types} | ${micro.counts.gold} |`,
      );
    }
  }
  return lines;
}

export function reportNerCv(
  pool: readonly NerDocument[],
  gazetteer: Gazetteer,
  extra: readonly Document[],
  baseline: Tagger,
  options: { final: boolean },
): void {
  const split = nerSplit(pool);
  const records: FitRecord[] = [];
  const foldName = (train: readonly NerDocument[]) => {
    const trained = new Set(train);
    const held = split.folds.findIndex((fold) => !trained.has(fold[0]!));
    return held < 0 ? 'all CV folds' : `fold ${held + 1}`;
  };
  const procedures = [quarryProcedure(gazetteer, extra, records)(foldName), fixedProcedure(BASELINE, baseline)];
  const documents = split.folds.flat();
  const sentences = documents.reduce((n, d) => n + d.document.length, 0);
  console.log(
    `\n## Cross-validated (wikigold + BTC + WNUT together): ${documents.length} documents, ${sentences} sentences in 5 folds; ${split.final.length} documents in the final fold; exact-span F1`,
  );
  for (const type of [null, ...SCORED]) {
    const title = type ? `${type} F1` : 'micro F1 (PER/ORG/LOC)';
    for (const line of cvLines(title, crossValidate(split.folds, procedures, f1Of(type)), BASELINE)) console.log(line);
  }
  for (const line of perSetLines(split, procedures)) console.log(line);
  if (options.final)
    for (const type of [null, ...SCORED])
      for (const line of finalLines(
        type ? `${type} F1` : 'micro F1',
        scoreFinalFold(split, procedures, f1Of(type)),
        BASELINE,
        split.final.length,
      ))
        console.log(line);
  else console.log(finalHint());
  const shipped = gunzipSync(readFileSync(join(MODEL_DIR, MODEL_FILE))).toString('utf8');
  const allFolds = records.find((r) => r.fold === 'all CV folds');
  if (allFolds)
    console.log(
      `\nThe fit on all CV folds ${allFolds.serialized === shipped ? 'is' : 'is NOT'} the shipped model byte for byte (${MODEL_FILE}).`,
    );
  console.log('\n### Fits');
  for (const r of records)
    console.log(
      `- ${r.fold}: ${r.epochs} epochs; trained in ${r.trainSeconds.toFixed(0)} s; tagged its documents in ${(r.tagMs / 1000).toFixed(1)} s`,
    );
}
