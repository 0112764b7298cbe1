/**
 * The `changeTracking` format: this read of a URL against the previous read of
 * the same URL by the same caller (and tag), kept in the durable records as
 * the last markdown and when it was read. `new` the first time, `same` or
 * `changed` after, `removed` when the page is now gone (404/410).
 * - `modes: ['git-diff']`: a unified diff of the markdown, as text and as
 *   Firecrawl's parse-diff style `json.files`. The diff is worked out in the
 *   extraction worker pool (services/extract/line-diff.ts), bounded in edit
 *   size and time; past the bounds only the status is given, with a warning.
 * - `modes: ['json']`: the page's data as the format's schema and prompt
 *   describe it, extracted by the language model, compared field by field with
 *   the previous read's (`json: {field: {previous, current}}`, changed fields
 *   only). The previous values are kept with the read; when the previous read
 *   kept none for this schema and prompt, they are extracted from its markdown
 *   (as Firecrawl does). Unchanged markdown reuses the kept values: a model
 *   asked twice about the same text may word the same facts differently.
 */
import { isDeepStrictEqual } from 'node:util';
import { createHash } from 'node:crypto';
import type { Keyv } from 'keyv';
import type { StructuredPatch } from 'diff';
import type { Principal } from '../../core/principal.js';
import type { ExtractionPool } from '../../services/extract/extraction-pool.js';

/** Bumped when the stored shape changes incompatibly; a record of another version reads as no previous read. */
const RECORD_VERSION = 1;
/** Markdown kept per URL: enough for any article, bounded so one page cannot grow the store without limit. */
const MAX_STORED_CHARS = 500_000;
/** Extracted data kept per URL, as JSON text; a larger answer is compared but not kept. */
const MAX_STORED_JSON_CHARS = 100_000;
/** The field a root value that is not an object is compared under. */
export const ROOT_FIELD = '$root';

interface StoredRead {
  v: number;
  markdown: string;
  scrapedAt: string;
  /** json mode's data, under the digest of the schema and prompt that asked for it. */
  json?: { key: string; value: unknown };
}

export interface ChangeTracking {
  previousScrapeAt: string | null;
  changeStatus: 'new' | 'same' | 'changed' | 'removed';
  visibility: 'visible' | 'hidden';
  diff?: { text: string; json: { files: DiffFile[] } };
  json?: Record<string, { previous: unknown; current: unknown }>;
}

interface DiffChange {
  type: 'add' | 'del' | 'normal';
  content: string;
  ln?: number;
  ln1?: number;
  ln2?: number;
}

interface DiffFile {
  from: string;
  to: string;
  additions: number;
  deletions: number;
  chunks: Array<{
    content: string;
    oldStart: number;
    oldLines: number;
    newStart: number;
    newLines: number;
    changes: DiffChange[];
  }>;
}

export interface ReadToTrack {
  url: string;
  markdown: string;
  /** The site answered that the page is gone. */
  gone: boolean;
  modes: string[];
  tag: string | null;
  caller: Principal | undefined;
  /** json mode: what identifies the question asked (schema and prompt), and how a markdown is answered. */
  json?: JsonQuestion;
}

export interface JsonQuestion {
  schema?: Record<string, unknown>;
  prompt?: string;
  /** The data in a page's markdown (the language model, the schema checked). */
  extract(markdown: string): Promise<unknown>;
}

export interface TrackingTools {
  records: Keyv;
  /** Where the diff is worked out: the extraction worker pool. */
  parsing: Pick<ExtractionPool, 'lineDiff'>;
  signal?: AbortSignal;
}

export interface TrackedChange {
  tracking: ChangeTracking;
  /** What could not be given (a diff too large to work out), for the Document's warning. */
  warnings: string[];
}

export function changeTrackingKey(read: Pick<ReadToTrack, 'url' | 'tag' | 'caller'>): string {
  return `firecrawl:change-tracking:${read.caller?.id ?? 'anonymous'}:${read.tag ?? ''}:${read.url}`;
}

/** Compares with the previous read and stores this one (a gone page keeps the last content it had). */
export async function trackChange(tools: TrackingTools, read: ReadToTrack, now = new Date()): Promise<TrackedChange> {
  const key = changeTrackingKey(read);
  const stored = (await tools.records.get(key)) as StoredRead | undefined;
  const previous = stored?.v === RECORD_VERSION ? stored : undefined;
  const markdown = read.markdown.slice(0, MAX_STORED_CHARS);
  const tracking: ChangeTracking = {
    previousScrapeAt: previous?.scrapedAt ?? null,
    changeStatus: statusOf(previous, markdown, read.gone),
    visibility: 'visible',
  };
  const warnings: string[] = [];
  if (read.modes.includes('git-diff') && previous && tracking.changeStatus !== 'new') {
    const diff = await gitDiff(tools, read.url, previous.markdown, read.gone ? '' : markdown);
    if (diff) tracking.diff = diff;
    else if (tracking.changeStatus === 'changed')
      warnings.push('changeTracking: the edit is too large to diff within the bounds; only its status is given');
  }
  let json: StoredRead['json'];
  if (read.json && !read.gone) {
    const compared = await compareJson(read.json, previous, markdown);
    json = compared.kept;
    if (compared.fields) tracking.json = compared.fields;
  }
  if (!read.gone) {
    const record: StoredRead = { v: RECORD_VERSION, markdown, scrapedAt: now.toISOString() };
    const keepable = json && JSON.stringify(json.value).length <= MAX_STORED_JSON_CHARS;
    await tools.records.set(key, keepable ? { ...record, json } : record);
  }
  return { tracking, warnings };
}

function statusOf(previous: StoredRead | undefined, markdown: string, gone: boolean): ChangeTracking['changeStatus'] {
  if (!previous) return 'new';
  if (gone) return 'removed';
  return previous.markdown === markdown ? 'same' : 'changed';
}

/** The digest that says two reads asked the same question of their pages. */
function questionKey(question: JsonQuestion): string {
  return createHash('sha256')
    .update(JSON.stringify([question.schema ?? null, question.prompt ?? null]))
    .digest('base64url');
}

async function compareJson(
  question: JsonQuestion,
  previous: StoredRead | undefined,
  markdown: string,
): Promise<{ kept: StoredRead['json']; fields?: ChangeTracking['json'] }> {
  const key = questionKey(question);
  const keptBefore = previous?.json?.key === key ? previous.json : undefined;
  if (keptBefore && previous!.markdown === markdown) return { kept: keptBefore, fields: {} };
  const current = await question.extract(markdown);
  const kept = { key, value: current };
  // The first read has nothing to compare with: its data is kept for the next one.
  if (!previous) return { kept };
  const before = keptBefore ? keptBefore.value : await question.extract(previous.markdown);
  return { kept, fields: changedFields(before, current) };
}

/** The top-level fields whose values differ (a root that is not an object is one field, ROOT_FIELD). */
export function changedFields(previous: unknown, current: unknown): NonNullable<ChangeTracking['json']> {
  if (!isPlainObject(previous) || !isPlainObject(current))
    return isDeepStrictEqual(previous, current) ? {} : { [ROOT_FIELD]: { previous, current } };
  const fields: NonNullable<ChangeTracking['json']> = {};
  for (const field of new Set([...Object.keys(previous), ...Object.keys(current)])) {
    const [was, is] = [previous[field], current[field]];
    if (!isDeepStrictEqual(was, is)) fields[field] = { previous: was ?? null, current: is ?? null };
  }
  return fields;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

async function gitDiff(
  tools: TrackingTools,
  url: string,
  before: string,
  after: string,
): Promise<ChangeTracking['diff'] | undefined> {
  const diff = await tools.parsing.lineDiff({ name: url, before, after, context: 3 }, tools.signal);
  if (!diff) return undefined;
  return { text: diff.text, json: { files: [fileOf(diff.patch)] } };
}

function fileOf(patch: StructuredPatch): DiffFile {
  let additions = 0;
  let deletions = 0;
  const chunks = patch.hunks.map((hunk) => {
    let oldLine = hunk.oldStart;
    let newLine = hunk.newStart;
    const changes = hunk.lines
      .filter((line) => !line.startsWith('\\'))
      .map((line): DiffChange => {
        if (line.startsWith('+')) {
          additions++;
          return { type: 'add', content: line, ln: newLine++ };
        }
        if (line.startsWith('-')) {
          deletions++;
          return { type: 'del', content: line, ln: oldLine++ };
        }
        return { type: 'normal', content: line, ln1: oldLine++, ln2: newLine++ };
      });
    return {
      content: `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`,
      oldStart: hunk.oldStart,
      oldLines: hunk.oldLines,
      newStart: hunk.newStart,
      newLines: hunk.newLines,
      changes,
    };
  });
  return { from: patch.oldFileName, to: patch.newFileName, additions, deletions, chunks };
}
