/**
 * Whether extraction survived one mutated page (issue 44). The page is read
 * by the extraction worker's own entry (workers/extract.worker.ts: bytes are
 * decoded there, then extract()), in this thread.
 *
 *   failed — the extractor threw, answered "extraction_error", or called the
 *            page unreadable (success false) while at least MIN_REMAINING
 *            paragraphs of the unmutated page's main text are still in it;
 *   lost   — it read the page, but kept less than half of the main text
 *            still in it.
 *
 * "Still in it" is measured against what the mutation left, not against the
 * unmutated page. Each paragraph of the unmutated page's main text gives a
 * probe: 32 letters and digits from its middle (case, spaces and punctuation
 * dropped, so a tag or space a mutation put between two letters changes
 * nothing). A probe is still in the page when it occurs in the mutated page
 * read plainly (tags, scripts and styles stripped, references decoded; bytes
 * decoded by the charset the mutated page declares, which is what a browser
 * shows too), and kept when it occurs in the extracted text. A truncation
 * that cut the article in half is measured against the half that is left;
 * one that left fewer than MIN_REMAINING probes is checked only for crashes.
 *
 * A probe is still in the page only while every copy of it is: text the
 * unmutated page holds twice (a heading and its table-of-contents link, a
 * product name in the grid and in a recently-viewed box) that lost a copy
 * cannot tell whether the main text's copy is the one left, and a truncation
 * that cut the article after its table of contents leaves only the links,
 * which a correct reading leaves out.
 */
import { performance } from 'node:perf_hooks';
import { decodeEntities } from '../../core/entities.js';
import { markupOf } from '../../services/extract/page-content.js';
import type { ExtractionResult } from '../../services/extract/types.js';
import run from '../../workers/extract.worker.js';
import type { MutatedPage } from './page-mutator.js';

export const MIN_REMAINING = 3;
export const KEPT_SHARE = 0.5;
const PROBE_CHARS = 32;

export type Verdict = 'ok' | 'failed' | 'lost';

export interface FuzzOutcome {
  verdict: Verdict;
  detail: string;
  /** Main-text probes of the unmutated page still in the mutated one, and how many of them the extraction kept. */
  remaining: number;
  kept: number;
  /** Time the extraction itself took (not the check). */
  extractMs: number;
}

/** Letters and digits only, lower-cased. */
export function squash(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}

/** One probe per paragraph long enough to have one: PROBE_CHARS letters and digits from its middle. */
export function probesOf(text: string): string[] {
  return text
    .split(/\n+/)
    .map(squash)
    .filter((paragraph) => paragraph.length >= PROBE_CHARS)
    .map((paragraph) => {
      const from = Math.floor((paragraph.length - PROBE_CHARS) / 2);
      return paragraph.slice(from, from + PROBE_CHARS);
    });
}

/** A page's text read plainly: no tags, scripts or styles, references decoded. */
export function plainText(markup: string): string {
  const withoutCode = markup
    .replace(/<(script|style)\b[^>]*>[\s\S]*?(?:<\/\1\s*>|$)/gi, ' ')
    .replace(/<!--[\s\S]*?(?:-->|$)/g, ' ');
  return decodeEntities(withoutCode.replace(/<[^>]*(?:>|$)/g, ' '));
}

/**
 * What a mutated page is judged against: the unmutated page's extraction, and each probe of its main text with the
 * number of copies the unmutated page's plain text holds.
 */
export interface FuzzBaseline {
  result: ExtractionResult;
  probes: Map<string, number>;
}

/** The baseline of an unmutated page, given its extraction (timed apart from the check's own work). */
export function baselineOf(html: string, result: ExtractionResult): FuzzBaseline {
  const present = squash(plainText(html));
  return { result, probes: new Map(probesOf(result.text).map((probe) => [probe, copiesOf(probe, present)])) };
}

/** How many times a probe occurs in a squashed text (copies do not overlap: a probe is 32 characters). */
function copiesOf(probe: string, text: string): number {
  let count = 0;
  for (let at = text.indexOf(probe); at >= 0; at = text.indexOf(probe, at + probe.length)) count++;
  return count;
}

/** Extraction as the worker runs it, for a page given as text. */
export function extractText(html: string, url: string): ExtractionResult {
  return run({ html, url }) as ExtractionResult;
}

function extractMutated(page: MutatedPage, url: string): ExtractionResult {
  if (!page.bytes) return extractText(page.html, url);
  const task =
    page.contentTypeHeader === undefined
      ? { bytes: page.bytes, url }
      : { bytes: page.bytes, contentTypeHeader: page.contentTypeHeader, url };
  return run(task) as ExtractionResult;
}

function markupOfMutated(page: MutatedPage): string {
  if (!page.bytes) return page.html;
  return markupOf(
    page.contentTypeHeader === undefined
      ? { bytes: page.bytes }
      : { bytes: page.bytes, contentTypeHeader: page.contentTypeHeader },
  );
}

/** Checks one mutated page against the unmutated page's extraction. */
export function checkMutation(baseline: FuzzBaseline, page: MutatedPage, url: string): FuzzOutcome {
  let result: ExtractionResult;
  const started = performance.now();
  try {
    result = extractMutated(page, url);
  } catch (error) {
    return {
      verdict: 'failed',
      detail: `threw ${(error as Error)?.stack ?? String(error)}`,
      remaining: 0,
      kept: 0,
      extractMs: performance.now() - started,
    };
  }
  const extractMs = performance.now() - started;
  const outcome = judge(baseline, page, result);
  return { ...outcome, extractMs };
}

function judge(baseline: FuzzBaseline, page: MutatedPage, result: ExtractionResult): Omit<FuzzOutcome, 'extractMs'> {
  if (!result.success && result.failureReason === 'extraction_error')
    return { verdict: 'failed', detail: 'extraction_error', remaining: 0, kept: 0 };
  if (!baseline.result.success) return { verdict: 'ok', detail: 'unmutated page not content', remaining: 0, kept: 0 };

  const present = squash(plainText(markupOfMutated(page)));
  const remaining = [...baseline.probes]
    .filter(([probe, copies]) => copiesOf(probe, present) >= Math.max(1, copies))
    .map(([probe]) => probe);
  if (remaining.length < MIN_REMAINING)
    return { verdict: 'ok', detail: 'too little main text left to judge', remaining: remaining.length, kept: 0 };
  if (!result.success)
    return {
      verdict: 'failed',
      detail: `success false (${result.failureReason})`,
      remaining: remaining.length,
      kept: 0,
    };
  const extracted = squash(result.text);
  const kept = remaining.filter((probe) => extracted.includes(probe)).length;
  if (kept < remaining.length * KEPT_SHARE)
    return {
      verdict: 'lost',
      detail: `kept ${kept} of ${remaining.length} paragraphs`,
      remaining: remaining.length,
      kept,
    };
  return { verdict: 'ok', detail: '', remaining: remaining.length, kept };
}
