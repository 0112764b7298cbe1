/**
 * The rules' stance decision: how one piece of evidence (a sentence of a
 * page) stands toward one fact (stance-rules.ts). check-claim asks the
 * language model or a configured NLI model (stance-model.ts) first and falls
 * back to this; retrieval and the verdict do not care which judged.
 */
import type { TextAnalysis } from './analysis.js';
import type { Fact } from './facts.js';
import { judgeByRules, type StanceJudgement } from './stance-rules.js';

export interface EvidenceText {
  analysis: TextAnalysis;
  /** Weighted share of the fact's content terms in the evidence. */
  coverage: number;
  /** Lexical and semantic relevance to the fact, 0..1. */
  relevance: number;
}

export function stanceOf(fact: Fact, evidence: EvidenceText): StanceJudgement {
  return judgeByRules({
    fact: fact.analysis,
    sentence: evidence.analysis,
    coverage: evidence.coverage,
    relevance: evidence.relevance,
  });
}
