/**
 * Fits the passage relevance model (services/ranking/passage-relevance.ts) on
 * Chroma's chunking evaluation: every corpus is cut into passages as the agent
 * area cuts pages (recursive, 120 tokens); for each question the passages
 * overlapping a gold excerpt are positives, and the ten passages sharing most
 * of its words without holding the answer (hard negatives) plus ten random
 * ones are negatives. A logistic regression on the features gives the weights;
 * half the questions fit, the other half measure (log loss, AUC, calibration
 * by bins), then all of them fit the weights printed for the source.
 */
import { seededRandom } from '../../core/seeded-random.js';
import { chunkText } from '../../services/chunking/chunk-text.js';
import type { Embedder } from '../../services/embeddings/types.js';
import { DEFAULT_PASSAGE_TOKENS } from '../../services/ranking/page-passages.js';
import {
  passageFeatures,
  probability,
  queryTerms,
  type LogisticWeights,
  type PassageFeatures,
  type PassageVectorCache,
} from '../../services/ranking/passage-relevance.js';
import { rulerWords } from '../ruler-words.js';
import { readChromaCorpora, readChromaQuestions, type ChromaQuestion } from '../chroma-dataset.js';

interface Row {
  features: PassageFeatures;
  label: 0 | 1;
  question: number;
}

const FEATURES = ['coverage', 'weighted', 'bigrams', 'title', 'semantic'] as const;

function overlaps(chunk: { start: number; end: number }, excerpt: { start: number; end: number }): boolean {
  const shared = Math.min(chunk.end, excerpt.end) - Math.max(chunk.start, excerpt.start);
  return shared > 0 && shared >= 0.5 * Math.min(chunk.end - chunk.start, excerpt.end - excerpt.start);
}

async function buildRows(questions: ChromaQuestion[], embedder: Embedder | null): Promise<Row[]> {
  const corpora = readChromaCorpora([...new Set(questions.map((q) => q.corpusId))]);
  const chunks = new Map<string, Array<{ text: string; start: number; end: number; words: Set<string> }>>();
  for (const [id, text] of corpora) {
    const cut = await chunkText(text, { strategy: 'recursive', maxTokens: DEFAULT_PASSAGE_TOKENS, overlapTokens: 0 });
    chunks.set(
      id,
      cut.map((c) => ({ text: c.text, start: c.start, end: c.end, words: new Set(rulerWords(c.text)) })),
    );
  }
  const random = seededRandom(20260101);
  const cache: PassageVectorCache = new Map();
  const rows: Row[] = [];
  for (const [q, question] of questions.entries()) {
    const own = chunks.get(question.corpusId)!;
    const positive = own.filter((c) => question.excerpts.some((e) => overlaps(c, e)));
    const terms = queryTerms(question.question).terms;
    const others = own.filter((c) => !positive.includes(c));
    const hard = others
      .map((c) => ({ c, shared: terms.filter((t) => c.words.has(t)).length }))
      .sort((a, b) => b.shared - a.shared)
      .slice(0, 10)
      .map((x) => x.c);
    const easy = Array.from({ length: 10 }, () => others[Math.floor(random() * others.length)]!).filter(
      (c) => !hard.includes(c),
    );
    const candidates = [...positive, ...hard, ...new Set(easy)];
    const features = await passageFeatures(
      question.question,
      candidates.map((c) => ({ text: c.text })),
      embedder,
      undefined,
      cache,
    );
    features.forEach((f, i) => rows.push({ features: f, label: i < positive.length ? 1 : 0, question: q }));
  }
  return rows;
}

function vector(f: PassageFeatures): number[] {
  return FEATURES.map((name) => (name === 'semantic' ? (f.semantic ?? 0) : f[name]));
}

/**
 * Logistic regression by gradient descent. Positives are weighted up to balance the classes, so
 * the fitted probability is the one a passage would have if holding the answer or not were
 * equally common among candidates: 0.5 is where the features favour neither.
 */
export function fitLogistic(
  rows: Row[],
  useSemantic: boolean,
  iterations = 4000,
  rate = 2,
  l2 = 1e-3,
): LogisticWeights {
  const x = rows.map((r) => vector(r.features));
  const positives = rows.filter((r) => r.label === 1).length;
  const balance = (rows.length - positives) / Math.max(1, positives);
  const weightOf = (label: number) => (label === 1 ? balance : 1);
  const totalWeight = rows.reduce((sum, r) => sum + weightOf(r.label), 0);
  const w = new Array<number>(FEATURES.length + 1).fill(0);
  const active = FEATURES.map((name) => useSemantic || name !== 'semantic');
  for (let it = 0; it < iterations; it++) {
    const gradient = new Array<number>(w.length).fill(0);
    for (let i = 0; i < rows.length; i++) {
      let z = w[0]!;
      for (let j = 0; j < FEATURES.length; j++) if (active[j]) z += w[j + 1]! * x[i]![j]!;
      const error = (1 / (1 + Math.exp(-z)) - rows[i]!.label) * weightOf(rows[i]!.label);
      gradient[0]! += error;
      for (let j = 0; j < FEATURES.length; j++) if (active[j]) gradient[j + 1]! += error * x[i]![j]!;
    }
    for (let j = 0; j < w.length; j++) w[j]! -= rate * (gradient[j]! / totalWeight + (j > 0 ? l2 * w[j]! : 0));
  }
  const round = (v: number) => Math.round(v * 100) / 100;
  return {
    intercept: round(w[0]!),
    coverage: round(w[1]!),
    weighted: round(w[2]!),
    bigrams: round(w[3]!),
    title: round(w[4]!),
    semantic: useSemantic ? round(w[5]!) : 0,
  };
}

function auc(scores: number[], labels: number[]): number {
  const pairs = scores.map((s, i) => ({ s, l: labels[i]! })).sort((a, b) => a.s - b.s);
  let rankSum = 0;
  let positives = 0;
  pairs.forEach((p, i) => {
    if (p.l === 1) {
      rankSum += i + 1;
      positives++;
    }
  });
  const negatives = pairs.length - positives;
  return (rankSum - (positives * (positives + 1)) / 2) / (positives * negatives);
}

/** Log loss, AUC, and per score bin the share of gold passages with the classes balanced (as fitted) and as drawn. */
function evaluate(rows: Row[], weights: LogisticWeights, semantic: boolean): string {
  const scores = rows.map((r) => probability(semantic ? r.features : { ...r.features, semantic: null }, weights));
  const labels = rows.map((r) => r.label);
  const positives = labels.filter((l) => l === 1).length;
  const balance = (labels.length - positives) / Math.max(1, positives);
  const logLoss =
    -scores.reduce(
      (sum, p, i) => sum + (labels[i] ? balance * Math.log(Math.max(p, 1e-9)) : Math.log(Math.max(1 - p, 1e-9))),
      0,
    ) /
    (labels.length - positives + balance * positives);
  const edges = [0, 0.2, 0.4, 0.6, 0.8, 1.0001];
  const bins = edges.slice(0, -1).map((lo, b) => {
    const hi = edges[b + 1]!;
    const inBin = scores.map((s, i) => ({ s, l: labels[i]! })).filter((x) => x.s >= lo && x.s < hi);
    const gold = inBin.filter((x) => x.l === 1).length;
    const balanced = inBin.length ? (balance * gold) / (balance * gold + inBin.length - gold) : NaN;
    const drawn = inBin.length ? gold / inBin.length : NaN;
    const pct = (v: number) => (Number.isNaN(v) ? '-' : `${(v * 100).toFixed(0)}%`);
    return `${lo.toFixed(1)}–${Math.min(1, hi).toFixed(1)}: ${String(inBin.length).padStart(5)} passages, gold ${pct(balanced)} balanced, ${pct(drawn)} as drawn`;
  });
  return `balanced log loss ${logLoss.toFixed(3)}, AUC ${auc(scores, labels).toFixed(3)}\n    ${bins.join('\n    ')}`;
}

export async function runCalibrationFit(embedder: Embedder): Promise<void> {
  const questions = readChromaQuestions();
  const started = performance.now();
  const rows = await buildRows(questions, embedder);
  const positives = rows.filter((r) => r.label === 1).length;
  console.log(
    `Passage calibration: ${questions.length} questions, ${rows.length} passages (${positives} gold, ${rows.length - positives} negatives), features in ${Math.round(performance.now() - started)} ms`,
  );
  const train = rows.filter((r) => r.question % 2 === 0);
  const test = rows.filter((r) => r.question % 2 === 1);
  for (const semantic of [true, false]) {
    const label = semantic ? `with embeddings (${embedder.info().id})` : 'lexical only';
    const held = fitLogistic(train, semantic);
    console.log(`\n${label}: fitted on even questions, measured on odd ones: ${evaluate(test, held, semantic)}`);
    const all = fitLogistic(rows, semantic);
    console.log(`  weights fitted on all questions: ${JSON.stringify(all)}`);
  }
}
