/**
 * Fits the extractive answer's page choice and answering models
 * (services/answers/answer-choice.ts) from questions whose answering pages are
 * known. Everything is chosen from the questions given, so bench:answer can
 * run it inside each training fold and bench/answer/fit-answer-choice.ts on
 * all CV folds for the shipped file.
 *
 *   page choice  conditional logit over each question's pages (those with a
 *                quotable sentence): maximise the log-probability of the gold
 *                pages' total share, L2-regularised, on standardised features
 *   answering    logistic regression; label: the question was asked with its
 *                pages and the chosen page is gold (a control, or a wrong page,
 *                is 0), on the leading page's own features (the page model
 *                fitted on the same questions picks it)
 *   threshold    the lowest confidence at which 70 % of the controls among the
 *                same questions abstain (issue 47's bar for questions the pages
 *                do not answer): every answerable question above it is answered
 *
 * Regularisation is fixed (L2 = 1 on standardised features) rather than chosen,
 * so there is nothing to tune by hand.
 */
import {
  ANSWER_FEATURES,
  answerFeatureVector,
  choosePage,
  dot,
  PAGE_FEATURES,
  pageFeatureVector,
  pageScores,
  type AnswerChoice,
  type AnswerChoiceModel,
  type PageEvidence,
} from '../../services/answers/answer-choice.js';

export interface ChoiceQuestion {
  /** Asked without its gold pages: the right answer is to abstain. */
  control: boolean;
  /** Some passage read reaches ANSWERED_MIN; when not, the answer abstains before any model is asked. */
  answerable: boolean;
  pages: PageEvidence[];
  /** Per page (same order): it is a gold page. */
  gold: boolean[];
}

const L2 = 1;

/** The side of zero a weight must keep: 1 at least 0, −1 at most 0, 0 free. */
type Sign = 1 | -1 | 0;
/**
 * More of what the question asks for never counts against a page or an answer, and more words the question lacks never
 * count for one. Without these signs, correlated features (the best passage and its best sentence) take weights of
 * opposite sign that fit the bench's pages and turn round on other pages (a reranker's sentence scores, for one).
 */
const SIGNS: Record<(typeof PAGE_FEATURES)[number], Sign> = {
  titleLead: 1,
  wholePage: 1,
  position: 1,
  passage: 1,
  sentence: 1,
  distinctive: 1,
  novelty: -1,
};
const ITERATIONS = 400;

interface Scaling {
  mean: number[];
  scale: number[];
}

function scalingOf(rows: readonly number[][], width: number): Scaling {
  const mean = Array.from({ length: width }, (_, j) => rows.reduce((s, r) => s + r[j]!, 0) / Math.max(1, rows.length));
  const scale = Array.from({ length: width }, (_, j) => {
    const variance = rows.reduce((s, r) => s + (r[j]! - mean[j]!) ** 2, 0) / Math.max(1, rows.length);
    return variance > 1e-12 ? Math.sqrt(variance) : 1;
  });
  return { mean, scale };
}

const standardise = (row: readonly number[], s: Scaling) => row.map((v, j) => (v - s.mean[j]!) / s.scale[j]!);

/**
 * Gradient ascent with a step that halves whenever the objective falls (the objectives are concave, so this
 * converges); `gradient` returns the objective and its gradient at w.
 */
function maximise(signs: readonly Sign[], objective: (w: number[]) => { value: number; gradient: number[] }): number[] {
  // Each weight kept on its side of zero (projected gradient ascent).
  const project = (w: number[]) => w.map((v, j) => (signs[j]! * v < 0 ? 0 : v));
  let w = new Array<number>(signs.length).fill(0);
  let current = objective(w);
  let step = 1;
  for (let i = 0; i < ITERATIONS && step > 1e-8; i++) {
    const next = project(w.map((v, j) => v + step * current.gradient[j]!));
    const tried = objective(next);
    if (tried.value >= current.value) {
      w = next;
      current = tried;
      step *= 1.2;
    } else step /= 2;
  }
  return w;
}

/** Page-choice weights on the raw features (the standardisation folded in; a per-question constant is irrelevant). */
export function fitPageWeights(questions: readonly ChoiceQuestion[]): number[] {
  const usable = questions.filter((q) => q.answerable && !q.control && q.gold.some(Boolean) && q.pages.length > 1);
  const raw = usable.map((q) => q.pages.map(pageFeatureVector));
  const scaling = scalingOf(raw.flat(), PAGE_FEATURES.length);
  const rows = raw.map((pages) => pages.map((p) => standardise(p, scaling)));
  const w = maximise(
    PAGE_FEATURES.map((name) => SIGNS[name]),
    (weights) => {
      let value = -0.5 * L2 * dot(weights, weights);
      const gradient = weights.map((v) => -L2 * v);
      rows.forEach((pages, qi) => {
        const scores = pages.map((p) => dot(weights, p));
        const top = Math.max(...scores);
        const exps = scores.map((s) => Math.exp(s - top));
        const all = exps.reduce((a, b) => a + b, 0);
        const goldSum = exps.reduce((a, e, i) => a + (usable[qi]!.gold[i] ? e : 0), 0);
        value += Math.log(goldSum / all);
        pages.forEach((p, i) => {
          const inGold = usable[qi]!.gold[i] ? exps[i]! / goldSum : 0;
          const inAll = exps[i]! / all;
          for (let j = 0; j < p.length; j++) gradient[j]! += (inGold - inAll) * p[j]!;
        });
      });
      return { value, gradient };
    },
  );
  return w.map((v, j) => v / scaling.scale[j]!);
}

/** Logistic regression: intercept and weights on the raw features. */
function fitLogistic(
  raw: readonly number[][],
  labels: readonly boolean[],
  signs: readonly Sign[],
): { intercept: number; weights: number[] } {
  const width = signs.length;
  const scaling = scalingOf(raw, width);
  const rows = raw.map((r) => [1, ...standardise(r, scaling)]);
  const w = maximise([0, ...signs], (weights) => {
    // The intercept is not penalised.
    let value = -0.5 * L2 * dot(weights.slice(1), weights.slice(1));
    const gradient = weights.map((v, j) => (j === 0 ? 0 : -L2 * v));
    rows.forEach((row, i) => {
      const z = dot(weights, row);
      const p = 1 / (1 + Math.exp(-z));
      value += labels[i] ? Math.log(Math.max(p, 1e-12)) : Math.log(Math.max(1 - p, 1e-12));
      const residual = (labels[i] ? 1 : 0) - p;
      for (let j = 0; j < row.length; j++) gradient[j]! += residual * row[j]!;
    });
    return { value, gradient };
  });
  const weights = w.slice(1).map((v, j) => v / scaling.scale[j]!);
  const intercept = w[0]! - weights.reduce((s, v, j) => s + v * scaling.mean[j]!, 0);
  return { intercept, weights };
}

/** The decision the product makes on a question's evidence (extractive.ts: the gate, then the model). */
export function decide(model: AnswerChoiceModel, question: ChoiceQuestion): AnswerChoice {
  const choice = choosePage(model, question.pages);
  return question.answerable ? choice : { ...choice, answered: false, confidence: 0 };
}

/** The chosen page is gold (false when none was chosen). */
export function choseGold(model: AnswerChoiceModel, question: ChoiceQuestion): boolean {
  const choice = choosePage(model, question.pages);
  const at = question.pages.findIndex((p) => p.citation === choice.citation);
  return at >= 0 && question.gold[at] === true;
}

export function fitAnswerChoice(questions: readonly ChoiceQuestion[]): AnswerChoiceModel {
  const page = { weights: fitPageWeights(questions) };
  const withPage: AnswerChoiceModel = { page, answer: { intercept: 0, weights: [], threshold: 0 } };
  const judged = questions.filter((q) => q.answerable && q.pages.length > 0);
  const raw = judged.map((q) => {
    const scores = pageScores(withPage, q.pages);
    return answerFeatureVector(q.pages[scores.indexOf(Math.max(...scores))]!);
  });
  const labels = judged.map((q) => !q.control && choseGold(withPage, q));
  const { intercept, weights } = fitLogistic(
    raw,
    labels,
    ANSWER_FEATURES.map((name) => SIGNS[name]),
  );
  if (weights.length !== ANSWER_FEATURES.length) throw new Error('answer features and weights differ in length');
  const model: AnswerChoiceModel = { page, answer: { intercept, weights, threshold: 0.5 } };
  return { page, answer: { intercept, weights, threshold: chooseThreshold(model, questions) } };
}

/** Share of unanswerable questions the threshold is set to abstain on: issue 47's bar for the controls. */
export const CONTROL_ABSTAIN_TARGET = 0.7;

/**
 * The lowest threshold at which CONTROL_ABSTAIN_TARGET of the controls among `questions` abstain: the controls' bar is
 * met on the training questions, and every answerable question above it is answered (halfway to the next control's
 * confidence, so a held-out control just above the last one abstained on is not answered by a hair).
 */
export function chooseThreshold(model: AnswerChoiceModel, questions: readonly ChoiceQuestion[]): number {
  const confidences = questions
    .filter((q) => q.control)
    .map((q) => decide(model, q).confidence)
    .sort((a, b) => a - b);
  if (confidences.length === 0) return 0.5;
  const needed = Math.ceil(CONTROL_ABSTAIN_TARGET * confidences.length);
  const last = confidences[needed - 1]!;
  const next = confidences[needed] ?? Math.min(1, last + 1e-6);
  return Math.round(((last + next) / 2) * 1e6) / 1e6;
}
