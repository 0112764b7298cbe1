/**
 * An NLI model as verify's StanceModel: premise = the evidence sentence,
 * hypothesis = the fact. Its labels (id2label) are read by name: entailment
 * supports, contradiction contradicts, neutral (or anything else) is
 * unrelated; the strength is the winning label's probability.
 */
import { roundTo } from '../../core/rounding.js';
import type { ModelHost } from './model-host.js';
import { softmax, type ScorePairs } from './pair-queue.js';

export type Stance = 'supports' | 'contradicts' | 'unrelated';

/** One sentence's stance toward one fact, whether judged by verify's rules or by a model. */
export interface StanceJudgement {
  stance: Stance;
  /** 0..1: how strongly the sentence supports or contradicts the fact. */
  strength: number;
  /** Which rules fired, for the nuances and for debugging. */
  reasons: string[];
}

/**
 * A configured natural-language-inference model judging stance in place of
 * verify's rules: does each evidence sentence entail the fact, contradict it,
 * or neither. Chosen by the caller of verify's checkClaim.
 */
export interface StanceModel {
  /** The model's hub id or folder name, reported as model_used. */
  readonly id: string;
  /** One judgement per sentence, in order. */
  judge(fact: string, sentences: string[], signal?: AbortSignal): Promise<StanceJudgement[]>;
}

export function stanceOfLabel(label: string): Stance {
  if (/entail|support|true/i.test(label)) return 'supports';
  if (/contradict|refute|false/i.test(label)) return 'contradicts';
  return 'unrelated';
}

/** Why these labels cannot give a stance, or null when both sides are named. */
export function stanceLabelProblem(labels: readonly string[]): string | null {
  const stances = new Set(labels.map(stanceOfLabel));
  return stances.has('supports') && stances.has('contradicts')
    ? null
    : `its labels (${labels.join(', ')}) name no entailment and contradiction`;
}

export function judgeFromLogits(labels: readonly string[], logits: ArrayLike<number>): StanceJudgement {
  const probabilities = softmax(logits);
  let best = 0;
  for (let i = 1; i < probabilities.length; i++) if (probabilities[i]! > probabilities[best]!) best = i;
  const stance = stanceOfLabel(labels[best]!);
  const strength = roundTo(probabilities[best]!, 3);
  return { stance, strength: stance === 'unrelated' ? 0 : strength, reasons: [`model: ${labels[best]} (${strength})`] };
}

export function stanceModelOf(host: ModelHost, scorePairs: ScorePairs): StanceModel {
  return {
    id: host.info.name,
    async judge(fact, sentences, signal) {
      const logits = await scorePairs(
        sentences.map((sentence) => [sentence, fact]),
        signal,
      );
      return logits.map((row) => judgeFromLogits(host.info.labels, row));
    },
  };
}
