/**
 * Runs the extraction fuzz: `count` mutated pages drawn round-robin from
 * `pages`, mutation i seeded with seed + i, each checked by checkMutation.
 * The unmutated pages are extracted once first (their extraction is what
 * each mutation is measured against, and their rate is the baseline speed).
 */
import { performance } from 'node:perf_hooks';
import type { ExtractionResult } from '../../services/extract/types.js';
import { checkMutation, extractText, type FuzzOutcome } from './fuzz-check.js';
import { mutatePage, type MutationKind } from './page-mutator.js';

export interface FuzzPage {
  id: string;
  url: string;
  html: string;
}

export interface FuzzProblem {
  page: string;
  seed: number;
  kinds: MutationKind[];
  notes: string[];
  outcome: FuzzOutcome;
}

export interface FuzzReport {
  pages: number;
  failed: number;
  lost: number;
  problems: FuzzProblem[];
  byKind: Map<MutationKind, { pages: number; failed: number; lost: number }>;
  /** Time extraction of the mutated pages took (the checks not counted). */
  mutatedMs: number;
  /** Time to extract the unmutated pages once each. */
  baselineMs: number;
  baselinePages: number;
}

export function runFuzz(
  pages: FuzzPage[],
  count: number,
  seed: number,
  onProgress?: (done: number) => void,
): FuzzReport {
  const baselineStarted = performance.now();
  const baselines = new Map<string, ExtractionResult>(pages.map((page) => [page.id, extractText(page.html, page.url)]));
  const baselineMs = performance.now() - baselineStarted;

  const report: FuzzReport = {
    pages: 0,
    failed: 0,
    lost: 0,
    problems: [],
    byKind: new Map(),
    mutatedMs: 0,
    baselineMs,
    baselinePages: pages.length,
  };
  for (let i = 0; i < count; i++) {
    const page = pages[i % pages.length]!;
    const mutationSeed = seed + i;
    const mutated = mutatePage(page.html, mutationSeed);
    const outcome = checkMutation(baselines.get(page.id)!, mutated, page.url);
    report.mutatedMs += outcome.extractMs;
    report.pages++;
    for (const kind of mutated.kinds) {
      const tally = report.byKind.get(kind) ?? { pages: 0, failed: 0, lost: 0 };
      tally.pages++;
      if (outcome.verdict === 'failed') tally.failed++;
      if (outcome.verdict === 'lost') tally.lost++;
      report.byKind.set(kind, tally);
    }
    if (outcome.verdict !== 'ok') {
      report[outcome.verdict]++;
      report.problems.push({ page: page.id, seed: mutationSeed, kinds: mutated.kinds, notes: mutated.notes, outcome });
    }
    if ((i + 1) % 500 === 0) onProgress?.(i + 1);
  }
  return report;
}
