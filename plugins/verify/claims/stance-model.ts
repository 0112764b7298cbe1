/**
 * A configured natural-language-inference model judging stance in place of the
 * rules: does each evidence sentence entail the fact, contradict it, or
 * neither. Implemented by services/models, chosen by the caller of checkClaim.
 */
import type { StanceJudgement } from './stance-rules.js';

export interface StanceModel {
  /** The model's hub id or folder name, reported as model_used. */
  readonly id: string;
  /** One judgement per sentence, in order. */
  judge(fact: string, sentences: string[], signal?: AbortSignal): Promise<StanceJudgement[]>;
}
