/**
 * An averaged perceptron over string features (Collins 2002), as used for
 * greedy left-to-right sequence tagging: learns by comparing its guess with
 * the truth and keeps the average of its weights over all updates, which
 * generalises far better than the last weights.
 */
import { roundTo } from '../../core/rounding.js';
export const TAGS = ['O', 'B-PER', 'I-PER', 'B-ORG', 'I-ORG', 'B-LOC', 'I-LOC', 'B-MISC', 'I-MISC'] as const;
export type Tag = (typeof TAGS)[number];

export interface SerializedModel {
  tags: readonly string[];
  /** feature → [tag index, weight] pairs (zero weights left out). */
  weights: Record<string, Array<[number, number]>>;
}

export class Perceptron {
  readonly weights = new Map<string, Float64Array>();
  private readonly totals = new Map<string, Float64Array>();
  private readonly stamps = new Map<string, Float64Array>();
  private instances = 0;

  scores(features: readonly string[]): Float64Array {
    const scores = new Float64Array(TAGS.length);
    for (const feature of features) {
      const weights = this.weights.get(feature);
      if (!weights) continue;
      for (let t = 0; t < TAGS.length; t++) scores[t]! += weights[t]!;
    }
    return scores;
  }

  /** Best tag index among those `allowed` accepts. */
  predict(features: readonly string[], allowed: (tag: number) => boolean = () => true): number {
    const scores = this.scores(features);
    let best = -1;
    for (let t = 0; t < TAGS.length; t++) if (allowed(t) && (best < 0 || scores[t]! > scores[best]!)) best = t;
    return best < 0 ? 0 : best;
  }

  update(truth: number, guess: number, features: readonly string[]): void {
    this.instances += 1;
    if (truth === guess) return;
    this.adjust(features, truth, 1);
    this.adjust(features, guess, -1);
  }

  /** One more training instance: the clock the averages are kept by (a structured update ticks once per token). */
  tick(): void {
    this.instances += 1;
  }

  /** Adds `delta` to the weight of `tag` for each feature (half of a structured update: truth +1, guess −1). */
  adjust(features: readonly string[], tag: number, delta: number): void {
    for (const feature of features) {
      let weights = this.weights.get(feature);
      if (!weights) {
        weights = new Float64Array(TAGS.length);
        this.weights.set(feature, weights);
        this.totals.set(feature, new Float64Array(TAGS.length));
        this.stamps.set(feature, new Float64Array(TAGS.length));
      }
      this.bump(feature, weights, tag, delta);
    }
  }

  private bump(feature: string, weights: Float64Array, tag: number, delta: number): void {
    const totals = this.totals.get(feature)!;
    const stamps = this.stamps.get(feature)!;
    totals[tag]! += (this.instances - stamps[tag]!) * weights[tag]!;
    stamps[tag] = this.instances;
    weights[tag]! += delta;
  }

  /** Replaces the weights by their averages; call once, after training. */
  average(): void {
    for (const [feature, weights] of this.weights) weights.set(this.averageOf(feature, weights));
  }

  private averageOf(feature: string, weights: Float64Array): Float64Array {
    const totals = this.totals.get(feature)!;
    const stamps = this.stamps.get(feature)!;
    return Float64Array.from(weights, (weight, t) =>
      this.instances > 0 ? (totals[t]! + (this.instances - stamps[t]!) * weight) / this.instances : 0,
    );
  }

  /** Weights rounded to 3 decimals; features whose largest |weight| is below `minimum` are dropped. */
  serialize(minimum = 0.001): SerializedModel {
    const weights: SerializedModel['weights'] = {};
    for (const [feature, values] of this.weights) {
      const pairs: Array<[number, number]> = [];
      values.forEach((value, tag) => {
        const rounded = roundTo(value, 3);
        if (rounded !== 0) pairs.push([tag, rounded]);
      });
      if (pairs.some(([, value]) => Math.abs(value) >= minimum)) weights[feature] = pairs;
    }
    return { tags: [...TAGS], weights };
  }

  /**
   * The mean of several models' weights (parameter mixing): taggers trained
   * on different shufflings of the same data err in different places, and
   * their mean errs less than any one of them.
   */
  static mean(models: readonly SerializedModel[]): Perceptron {
    const sums = new Map<string, Float64Array>();
    for (const model of models) {
      for (const [feature, pairs] of Object.entries(model.weights)) {
        let sum = sums.get(feature);
        if (!sum) sums.set(feature, (sum = new Float64Array(TAGS.length)));
        for (const [tag, value] of pairs) sum[tag]! += value / models.length;
      }
    }
    const mean = new Perceptron();
    for (const [feature, sum] of sums) mean.weights.set(feature, sum);
    return mean;
  }

  static load(model: SerializedModel): Perceptron {
    if (model.tags.join(',') !== TAGS.join(','))
      throw new Error(`entity model tags ${model.tags.join(',')} do not match ${TAGS.join(',')}`);
    const perceptron = new Perceptron();
    const entries = Object.entries(model.weights);
    // One buffer for all weights: a hundred thousand small arrays would each be an allocation at start-up.
    const buffer = new Float64Array(entries.length * TAGS.length);
    entries.forEach(([feature, pairs], k) => {
      const values = buffer.subarray(k * TAGS.length, (k + 1) * TAGS.length);
      for (const [tag, value] of pairs) values[tag] = value;
      perceptron.weights.set(feature, values);
    });
    return perceptron;
  }
}

/** BIO validity: I-X only right after B-X or I-X. */
export function allowedAfter(previous: number): (tag: number) => boolean {
  const previousType = TAGS[previous]!.slice(2);
  return (tag) => {
    const name = TAGS[tag]!;
    return !name.startsWith('I-') || (previousType !== '' && name.slice(2) === previousType);
  };
}
