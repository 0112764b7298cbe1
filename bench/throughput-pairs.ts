/**
 * A ratio of two throughputs on one server, robust to a shared machine:
 * both routes are warmed first (a cold route runs its first seconds at twice
 * the CPU per request while V8 compiles it, which is not what a running
 * server costs), then measured in alternating pairs, and the median pair is
 * the figure (a neighbour's burst lands in one pair, not in the result).
 */
import type { LoadResult } from './load-client.js';

export interface ThroughputPair {
  measured: LoadResult;
  baseline: LoadResult;
  /** measured ÷ baseline requests per second. */
  ratio: number;
}

export interface PairedRatio {
  /** In the order run. */
  pairs: ThroughputPair[];
  median: ThroughputPair;
}

export async function pairedRatio(
  measured: (seconds: number) => Promise<LoadResult>,
  baseline: (seconds: number) => Promise<LoadResult>,
  options: { pairs: number; seconds: number; warmSeconds: number; what: string },
): Promise<PairedRatio> {
  await measured(options.warmSeconds);
  await baseline(options.warmSeconds);
  const pairs: ThroughputPair[] = [];
  for (let pair = 0; pair < options.pairs; pair++) {
    const run = await measured(options.seconds);
    const base = await baseline(options.seconds);
    if (run.failed || base.failed)
      throw new Error(`${options.what}: throughput run had failures (${run.failed} and ${base.failed})`);
    pairs.push({ measured: run, baseline: base, ratio: run.perSecond / base.perSecond });
  }
  const byRatio = [...pairs].sort((a, b) => a.ratio - b.ratio);
  return { pairs, median: byRatio[Math.floor(byRatio.length / 2)]! };
}

/** Cores kept busy per second at a rate and a CPU cost per request: near 1, that side set the rate. */
export function coresBusy(perSecond: number, cpuMsPerRequest: number): number {
  return (perSecond * cpuMsPerRequest) / 1000;
}
