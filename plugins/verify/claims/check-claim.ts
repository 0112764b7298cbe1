/**
 * One claim against the pages read for it: facts → candidate sentences per
 * fact → stance of each → verdict and calibrated confidence. Shared by the
 * verify area and anything else that has to weigh a statement against pages
 * (monitor analysis, research).
 */
import type { Embedder } from '../../../services/embeddings/types.js';
import type { LlmClient } from '../../../services/llm/types.js';
import {
  AGGREGATION,
  credibilityWeight,
  decideVerdict,
  factOutcome,
  type JudgedCandidate,
  type VerdictOutcome,
} from './aggregate.js';
import { analyse, type TextAnalysis } from './analysis.js';
import { calibratedConfidence } from './confidence.js';
import { coverageScores, type CoverageScore } from './coverage-scores.js';
import { cleanClaim, decomposeClaim, type Fact } from './facts.js';
import { decomposeWithLlm, judgeWithLlm } from './llm-steps.js';
import { retrieveEvidence, type EvidencePage, type RetrievalOptions } from './retrieval.js';
import { reachOf, type FactReach } from './fact-parts.js';
import type { PageMentions } from './mentions.js';
import type { StanceModel } from '../../../services/models/stance-model.js';
import { lineConflicts, type ConflictKind } from './line-conflict.js';
import { offlineVerdict } from './offline-verdict.js';
import { stanceOf } from './stance.js';
import { claimWords, lineShare, linesOf } from './word-overlap.js';
import { TimeSlicer } from '../../../core/time-slice.js';

export type Depth = 'quick' | 'thorough';

export const RETRIEVAL: Record<Depth, Omit<RetrievalOptions, 'signal'>> = {
  quick: { perFact: 6, sentencesPerPage: 300, embedPerFact: 60, minRelevance: 0.2, coverSize: 3 },
  thorough: { perFact: 12, sentencesPerPage: 1000, embedPerFact: 150, minRelevance: 0.2, coverSize: 3 },
};

export type ClaimStep = 'decompose' | 'retrieve' | 'judge' | 'aggregate';

export interface CheckClaimOptions {
  depth: Depth;
  embedder: Embedder | null;
  /**
   * When given, the model decomposes the claim and judges stance; rules otherwise (and where its answer cannot be
   * read).
   */
  llm: LlmClient | null;
  /** A configured NLI model: judges stance when the LLM does not (absent or unreadable), before the rules. */
  stance?: StanceModel | null;
  signal?: AbortSignal;
  onStep?(step: ClaimStep, detail: string): void;
}

/** The claim's best line of the pages read (word-overlap.ts), with the page it is on. */
export interface BestLine {
  score: number;
  line: string;
  url: string;
}

export interface ClaimCheck extends VerdictOutcome {
  facts: VerdictOutcome['facts'];
  /** "overlap_rule" when the offline verdict (offline-verdict.ts) answered, else "fact_rules". */
  decidedBy: 'overlap_rule' | 'fact_rules';
  bestLine: BestLine | null;
  confidence: number;
  /** "rules", or the name of the model (LLM or NLI) that judged (some facts may still have fallen back to rules). */
  judgedBy: string;
  decomposedBy: string;
}

/** Everything the rules concluded of a claim, with what they read to get there (the benchmarks fit on it). */
export interface ClaimAssessment {
  /** The verdict answered: the rules' (byRules), or offline the coverage score's (offline-verdict.ts). */
  outcome: VerdictOutcome;
  /** What the fact-level rules alone concluded (aggregate.ts). */
  byRules: VerdictOutcome;
  /** How much of the claim the pages state (coverage-scores.ts). */
  scores: Record<CoverageScore, number>;
  /** How the claim's best line of the pages (word-overlap.ts) disagrees with it (line-conflict.ts). */
  conflicts: ConflictKind[];
  bestLine: BestLine | null;
  decidedBy: ClaimCheck['decidedBy'];
  /** Per fact, in order: what its evidence sentences hold of it. */
  reaches: FactReach[];
  /** Every sentence read of the pages, and what the pages mention. */
  sentences: TextAnalysis[];
  mentions: PageMentions;
  judgedBy: string;
  decomposedBy: string;
}

export async function checkClaim(
  claim: string,
  pages: EvidencePage[],
  options: CheckClaimOptions,
): Promise<ClaimCheck> {
  const { outcome, judgedBy, decomposedBy, bestLine, decidedBy } = await assessClaim(claim, pages, options);
  options.onStep?.('aggregate', outcome.verdict);
  return {
    ...outcome,
    decidedBy,
    bestLine,
    confidence: calibratedConfidence(outcome.verdict, outcome.strength, judgedBy !== 'rules'),
    judgedBy,
    decomposedBy,
  };
}

export async function assessClaim(
  claim: string,
  pages: EvidencePage[],
  options: CheckClaimOptions,
): Promise<ClaimAssessment> {
  const step = options.onStep ?? (() => undefined);
  let facts: Fact[] | null = null;
  let decomposedBy = 'rules';
  if (options.llm) {
    facts = await decomposeWithLlm(options.llm, claim, options.signal).catch(() => null);
    if (facts) decomposedBy = options.llm.model;
  }
  facts ??= decomposeClaim(claim);
  step('decompose', `${facts.length} fact${facts.length === 1 ? '' : 's'}`);

  const { candidates, mentions, sentences } = await retrieveEvidence(facts, pages, options.embedder, {
    ...RETRIEVAL[options.depth],
    ...(options.signal ? { signal: options.signal } : {}),
  });
  step('retrieve', `${candidates.reduce((n, c) => n + c.length, 0)} candidate sentences`);

  let judgedBy = 'rules';
  const judged: JudgedCandidate[][] = [];
  const byModel: boolean[] = [];
  for (const [i, fact] of facts.entries()) {
    const list = candidates[i]!;
    let judgements = options.llm ? await judgeWithLlm(options.llm, fact, list, options.signal).catch(() => null) : null;
    if (judgements) judgedBy = options.llm!.model;
    else if (options.stance && list.length > 0) {
      judgements = await options.stance
        .judge(
          fact.text,
          list.map((c) => c.sentence),
          options.signal,
        )
        .catch(() => null);
      if (judgements) judgedBy = options.stance.id;
    }
    byModel.push(judgements !== null);
    judgements ??= list.map((c) => stanceOf(fact, c));
    judged.push(
      list.map((c, j) => ({ ...c, judgement: judgements[j]!, weight: credibilityWeight(c.page.credibility) })),
    );
  }
  step('judge', `${judged.flat().filter((c) => c.judgement.stance !== 'unrelated').length} sentences take a side`);

  const reaches = facts.map((fact, i) => reachOf(fact, judged[i]!, mentions));
  const outcomes = facts.map((fact, i) => factOutcome(fact, judged[i]!, AGGREGATION, reaches[i], byModel[i]));
  const byRules = decideVerdict(outcomes);
  const bestLine = await bestLineOf(claim, pages);
  const scores = coverageScores(analyse(cleanClaim(claim)), sentences, reaches, bestLine?.score ?? 0);
  const conflicts = lineConflicts(claim, bestLine?.line ?? null);
  // The offline default: no model read the evidence, so the claim's coverage decides how far it is borne out.
  const decidedBy = judgedBy === 'rules' ? 'overlap_rule' : 'fact_rules';
  const outcome = decidedBy === 'overlap_rule' ? offlineVerdict(byRules, { scores, conflicts }) : byRules;
  return {
    outcome,
    byRules,
    scores,
    conflicts,
    bestLine,
    decidedBy,
    reaches,
    sentences,
    mentions,
    judgedBy,
    decomposedBy,
  };
}

/** lineOverlap over every page, in time slices: a long page has many lines and this runs on the event loop. */
async function bestLineOf(claim: string, pages: readonly EvidencePage[]): Promise<BestLine | null> {
  const words = claimWords(claim);
  const slicer = new TimeSlicer();
  let best: BestLine | null = null;
  for (const page of pages)
    for (const line of linesOf(page.text)) {
      const score = lineShare(words, line);
      if (score > (best?.score ?? 0)) best = { score, line, url: page.url };
      await slicer.pause();
    }
  return best;
}
