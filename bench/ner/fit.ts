/**
 * The NER model as a fitting procedure (docs/benchmarks.md, "Evaluation
 * protocol"): what `npm run train:ner` does to the documents it is given.
 * The bench runs it on each CV fold's training folds and scores the held-out
 * fold; the training script runs it on every CV fold and ships the result,
 * so the CV figure measures the procedure that made the shipped weights.
 *
 * Fitted here, from the training documents only: the tagger's and span
 * typer's weights, and the tagger's number of epochs (chosen by inner folds
 * among EPOCH_CANDIDATES, from one run per inner fold: the averaged weights
 * after each epoch are the candidates).
 */
import { dealIntoFolds } from '../protocol/folds.js';
import type { Gazetteer } from '../../services/entities/gazetteer.js';
import { Perceptron, type SerializedModel } from '../../services/entities/perceptron.js';
import { EntityRecognizer, taggerSpans } from '../../services/entities/recognizer.js';
import { trainTagger } from '../../services/entities/sequence-tagger.js';
import { trainSpanTyper } from '../../services/entities/span-typer.js';
import { tagsToSpans, type TokenSpan } from '../../services/entities/spans.js';
import type { Document, NerDocument } from './datasets.js';
import { count, emptyCounts, score } from './score.js';

export const TRAINING_SEED = 20261125;
/** The tagger's epochs to choose from (the longest is the one run each inner fold trains). */
export const EPOCH_CANDIDATES = [2, 3, 4, 6] as const;
const INNER_FOLDS = 3;
const TYPER_EPOCHS = 8;
/**
 * Tagger features whose largest averaged weight is under this are dropped from what is kept (the shipped file's size;
 * applied in CV too, so CV measures the pruned model).
 */
const TAGGER_PRUNE = 0.5;
const TYPER_PRUNE = 0.05;

export interface NerFit {
  model: SerializedModel;
  epochs: number;
  /** Inner-fold micro F1 of each candidate, in EPOCH_CANDIDATES order. */
  innerF1: number[];
}

export interface FitOptions {
  /** Documents always trained on besides the pool's (the hand-annotated WCXB openings). */
  extra: readonly Document[];
  /** Progress lines (the training script prints them; the bench stays quiet). */
  log?: (line: string) => void;
}

function microF1(documents: readonly Document[], predicted: readonly TokenSpan[][][]): number {
  const counts = emptyCounts();
  documents.forEach((doc, d) => doc.forEach((s, i) => count(counts, tagsToSpans(s.tags), predicted[d]![i]!)));
  return score(counts).f1;
}

/** The epochs whose averaged tagger scores best over inner folds of `train` (ties to fewer epochs). */
export function chooseEpochs(
  train: readonly NerDocument[],
  gazetteer: Gazetteer,
  options: FitOptions,
): { epochs: number; innerF1: number[] } {
  const sums = EPOCH_CANDIDATES.map(() => 0);
  const inner = dealIntoFolds(train, (d) => d.id, INNER_FOLDS);
  inner.forEach((held, f) => {
    const fit = inner.filter((_, g) => g !== f).flat();
    const heldDocs = held.map((d) => d.document);
    trainTagger([...fit.map((d) => d.document), ...options.extra], gazetteer, {
      epochs: EPOCH_CANDIDATES[EPOCH_CANDIDATES.length - 1]!,
      seed: TRAINING_SEED,
      onSnapshot: (epoch, model) => {
        const k = EPOCH_CANDIDATES.indexOf(epoch as (typeof EPOCH_CANDIDATES)[number]);
        if (k < 0) return;
        const pruned = Perceptron.load(model.serialize(TAGGER_PRUNE));
        const predicted = heldDocs.map(
          (doc) =>
            taggerSpans(
              pruned,
              gazetteer,
              doc.map((s) => s.words),
            ).spans,
        );
        sums[k]! += microF1(heldDocs, predicted) / INNER_FOLDS;
      },
    });
    options.log?.(`inner fold ${f + 1}/${INNER_FOLDS}: ${sums.map((v) => v.toFixed(3)).join(' ')}`);
  });
  let best = 0;
  sums.forEach((value, k) => {
    if (value > sums[best]! + 1e-9) best = k;
  });
  return { epochs: EPOCH_CANDIDATES[best]!, innerF1: sums };
}

/** Tagger and span typer trained on `train` (plus the extra documents), the epochs chosen by inner folds. */
export function fitNerModel(train: readonly NerDocument[], gazetteer: Gazetteer, options: FitOptions): NerFit {
  const { epochs, innerF1 } = chooseEpochs(train, gazetteer, options);
  const documents = [...train.map((d) => d.document), ...options.extra];
  const tagger = trainTagger(documents, gazetteer, {
    epochs,
    seed: TRAINING_SEED,
    onEpoch: (epoch, errors, tokens) =>
      options.log?.(`epoch ${epoch}/${epochs}: ${((1 - errors / tokens) * 100).toFixed(2)}% tokens right`),
  });
  const typer = trainSpanTyper(documents, gazetteer, { epochs: TYPER_EPOCHS, seed: TRAINING_SEED });
  const taggerModel = tagger.serialize(TAGGER_PRUNE);
  const model = {
    tags: taggerModel.tags,
    weights: { ...taggerModel.weights, ...typer.serialize(TYPER_PRUNE).weights },
  };
  return { model, epochs, innerF1 };
}

export function recognizerOf(fit: NerFit, gazetteer: Gazetteer): EntityRecognizer {
  return new EntityRecognizer(Perceptron.load(fit.model), gazetteer);
}
