/**
 * Merging the result lists of several engines into one ranked list.
 * Results whose URLs normalise to the same key (url-normalize.ts) become one
 * result that keeps every engine that found it.
 *
 * Score (SearXNG style, see SCORING.md):
 *
 *   raw   = (number of engines that found it) × Σ over its occurrences of weight / position
 *   score = raw / (highest raw in the list)          → 0..1, the best result has 1
 *
 * Sorted by score descending; ties (equal to 12 significant digits) go to the
 * best (lowest) position, then to the engine listed first, then to the
 * earlier position in that engine.
 */
import type { EngineResult } from '../../core/engine.js';
import { normalizeUrl } from './url-normalize.js';
import { roundScore as round } from '../../core/rounding.js';

export interface ScoreContribution {
  engine: string;
  /** 1-based position in that engine's list. */
  position: number;
  weight: number;
  /** weight / position × number of engines; the contributions of a result sum to its raw score. */
  contribution: number;
}

export interface MergedResult extends EngineResult {
  /** Every engine that found the result, in the order the lists were given. */
  engines: string[];
  positions: Array<{ engine: string; position: number }>;
  /** Normalised to 0..1. */
  score: number;
  /** The score before normalisation. */
  rawScore: number;
  explanation?: { formula: string; contributions: ScoreContribution[] };
}

export interface EngineResultList {
  engine: string;
  weight: number;
  results: EngineResult[];
  /** The results' normalised URLs when the caller has them already (EngineOutcome.keys); else worked out here. */
  keys?: string[];
}

/** Fields copied from the first duplicate that has them. */
const FIRST_WINS_FIELDS = [
  'publishedDate',
  'author',
  'thumbnail',
  'imageUrl',
  'width',
  'height',
  'sourceUrl',
  'authors',
  'doi',
] as const;

/** Raw scores are rounded to this many significant digits, so sums equal in exact arithmetic tie (0.1 + 0.2 vs 0.3). */
const SCORE_PRECISION = 12;

interface Group {
  /** The duplicate key the group was formed under (url-normalize.ts). */
  key: string;
  result: MergedResult;
  /** Index of the first list (engine) that found it. */
  firstEngineIndex: number;
  firstPosition: number;
  terms: Array<{ engine: string; position: number; weight: number; share: number }>;
}

export function mergeEngineResults(lists: EngineResultList[], options: { explain?: boolean } = {}): MergedResult[] {
  return mergeKeyedResults(lists, options).map(({ result }) => result);
}

/** A merged result beside the duplicate key it was grouped under: for callers that group results again. */
export interface KeyedResult {
  key: string;
  result: MergedResult;
}

/** mergeEngineResults, each result with its key. */
export function mergeKeyedResults(lists: EngineResultList[], options: { explain?: boolean } = {}): KeyedResult[] {
  const groups = new Map<string, Group>();
  lists.forEach(({ engine, weight, results, keys }, engineIndex) => {
    // A negative weight would push scores below 0; an engine can at most not count.
    const effectiveWeight = Math.max(0, weight);
    results.forEach((result, index) => {
      if (!result.url) return;
      const position = index + 1;
      const key = keys?.[index] ?? normalizeUrl(result.url);
      const group = groups.get(key);
      if (!group) {
        groups.set(key, {
          key,
          result: { ...result, engines: [engine], positions: [{ engine, position }], score: 0, rawScore: 0 },
          firstEngineIndex: engineIndex,
          firstPosition: position,
          terms: [{ engine, position, weight: effectiveWeight, share: effectiveWeight / position }],
        });
        return;
      }
      // An engine listing the same page twice does not get to vote twice: its first (best) position counts.
      if (group.result.engines.includes(engine)) return;
      group.result.engines.push(engine);
      group.result.positions.push({ engine, position });
      group.terms.push({ engine, position, weight: effectiveWeight, share: effectiveWeight / position });
      absorbDuplicate(group.result, result);
    });
  });

  const all = [...groups.values()];
  for (const group of all) {
    const raw = group.result.engines.length * group.terms.reduce((sum, term) => sum + term.share, 0);
    group.result.rawScore = Number(raw.toPrecision(SCORE_PRECISION));
  }
  let best = 0;
  for (const group of all) best = Math.max(best, group.result.rawScore);
  all.sort(compareGroups);

  return all.map(({ key, result, terms }) => {
    result.score = best > 0 ? result.rawScore / best : 0;
    if (options.explain) result.explanation = explain(result, terms, best);
    return { key, result };
  });
}

/** Folds a later duplicate into the merged result: https over http, the longest snippet, missing fields filled. */
function absorbDuplicate(merged: MergedResult, duplicate: EngineResult): void {
  if (merged.url.startsWith('http:') && duplicate.url.startsWith('https:')) merged.url = duplicate.url;
  if (!merged.title.trim() && duplicate.title.trim()) merged.title = duplicate.title;
  if (duplicate.snippet.trim().length > merged.snippet.trim().length) merged.snippet = duplicate.snippet;
  const target = merged as unknown as Record<string, unknown>;
  for (const field of FIRST_WINS_FIELDS) {
    if (target[field] === undefined && duplicate[field] !== undefined) target[field] = duplicate[field];
  }
  if (duplicate.extra) merged.extra = { ...duplicate.extra, ...merged.extra };
}

function compareGroups(a: Group, b: Group): number {
  return (
    b.result.rawScore - a.result.rawScore ||
    bestPosition(a.result) - bestPosition(b.result) ||
    a.firstEngineIndex - b.firstEngineIndex ||
    a.firstPosition - b.firstPosition
  );
}

function bestPosition(result: MergedResult): number {
  return Math.min(...result.positions.map((p) => p.position));
}

function explain(result: MergedResult, terms: Group['terms'], best: number): NonNullable<MergedResult['explanation']> {
  const factor = result.engines.length;
  const sum = terms.map((t) => `${t.weight}/${t.position}`).join(' + ');
  return {
    formula: `raw = engines × Σ(weight / position) = ${factor} × (${sum}) = ${round(result.rawScore)}; score = raw / best raw = ${round(result.rawScore)} / ${round(best)} = ${round(result.score)}`,
    // Each contribution carries the agreement factor, so they add up to the raw score.
    contributions: terms.map((t) => ({
      engine: t.engine,
      position: t.position,
      weight: t.weight,
      contribution: t.share * factor,
    })),
  };
}
