/**
 * Runs the extraction fuzz: `count` mutated pages drawn round-robin from
 * `pages`, mutation i seeded with seed + i, each checked by checkMutation.
 * Work goes by source page (fuzzSource): its unmutated extraction is done
 * once, first — it is what each of its mutations is measured against, and
 * its time is the baseline speed — then each of its mutations. runFuzz does
 * every source in this thread (the in-suite sample); fuzz-pool.ts spreads
 * the same sources over a worker pool (the benchmark).
 */
import { performance } from 'node:perf_hooks';
import { baselineOf, checkMutation, extractText, type FuzzOutcome } from './fuzz-check.js';
import { mutatePage, type MutationKind } from './page-mutator.js';

export interface FuzzPage {
  id: string;
  url: string;
  html: string;
}

export interface MutationResult {
  seed: number;
  kinds: MutationKind[];
  notes: string[];
  outcome: FuzzOutcome;
}

/** One source page's share of the run: its baseline time and each of its mutations. */
export interface SourceResult {
  page: string;
  baselineMs: number;
  mutations: MutationResult[];
}

export interface FuzzProblem extends MutationResult {
  page: string;
}

export type KindTally = { pages: number; failed: number; lost: number };

export interface FuzzReport {
  pages: number;
  failed: number;
  lost: number;
  problems: FuzzProblem[];
  byKind: Map<MutationKind, KindTally>;
  /** Time extraction of the mutated pages took, summed over threads (the checks not counted). */
  mutatedMs: number;
  /** Time to extract the unmutated pages once each, summed over threads. */
  baselineMs: number;
  baselinePages: number;
}

/** The seeds of each source page: page i of the run is pages[i % n], seeded seed + i. */
export function seedsBySource(sourceCount: number, count: number, seed: number): number[][] {
  const seeds: number[][] = Array.from({ length: Math.min(sourceCount, count) }, () => []);
  for (let i = 0; i < count; i++) seeds[i % sourceCount]!.push(seed + i);
  return seeds;
}

/** The baseline extraction of one source page, then each of its mutations checked against it. */
export function fuzzSource(page: FuzzPage, seeds: readonly number[]): SourceResult {
  const started = performance.now();
  const unmutated = extractText(page.html, page.url);
  const baselineMs = performance.now() - started;
  const baseline = baselineOf(page.html, unmutated);
  const mutations = seeds.map((seed) => {
    const mutated = mutatePage(page.html, seed);
    const outcome = checkMutation(baseline, mutated, page.url);
    return { seed, kinds: mutated.kinds, notes: mutated.notes, outcome };
  });
  return { page: page.id, baselineMs, mutations };
}

export function emptyReport(): FuzzReport {
  return {
    pages: 0,
    failed: 0,
    lost: 0,
    problems: [],
    byKind: new Map(),
    mutatedMs: 0,
    baselineMs: 0,
    baselinePages: 0,
  };
}

/** Adds one source's results to the report. */
export function addSource(report: FuzzReport, source: SourceResult, withBaseline = true): void {
  if (withBaseline) {
    report.baselineMs += source.baselineMs;
    report.baselinePages++;
  }
  for (const mutation of source.mutations) {
    const { outcome } = mutation;
    report.mutatedMs += outcome.extractMs;
    report.pages++;
    for (const kind of mutation.kinds) {
      const tally = report.byKind.get(kind) ?? { pages: 0, failed: 0, lost: 0 };
      tally.pages++;
      if (outcome.verdict === 'failed') tally.failed++;
      if (outcome.verdict === 'lost') tally.lost++;
      report.byKind.set(kind, tally);
    }
    if (outcome.verdict !== 'ok') {
      report[outcome.verdict]++;
      report.problems.push({ page: source.page, ...mutation });
    }
  }
}

/** The whole run in this thread. */
export function runFuzz(pages: FuzzPage[], count: number, seed: number): FuzzReport {
  const report = emptyReport();
  seedsBySource(pages.length, count, seed).forEach((seeds, index) =>
    addSource(report, fuzzSource(pages[index]!, seeds)),
  );
  return report;
}
