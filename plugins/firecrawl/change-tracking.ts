/**
 * The `changeTracking` format: this read of a URL against the previous read of
 * the same URL by the same caller (and tag), kept in the durable records as
 * the last markdown and when it was read. `new` the first time, `same` or
 * `changed` after, `removed` when the page is now gone (404/410); with
 * `modes: ['git-diff']` a unified diff of the markdown, as text and as
 * Firecrawl's parse-diff style `json.files`, made by the `diff` package.
 */
import { structuredPatch, formatPatch, type StructuredPatch } from 'diff';
import type { Keyv } from 'keyv';
import type { Principal } from '../../core/principal.js';

/** Bumped when the stored shape changes; a record of another version reads as no previous read. */
const RECORD_VERSION = 1;
/** Markdown kept per URL: enough for any article, bounded so one page cannot grow the store without limit. */
const MAX_STORED_CHARS = 500_000;
/** Beyond this many changed lines the diff is not worked out (its cost grows with the edit), only the status. */
const MAX_EDIT_LENGTH = 5_000;

interface StoredRead {
  v: number;
  markdown: string;
  scrapedAt: string;
}

export interface ChangeTracking {
  previousScrapeAt: string | null;
  changeStatus: 'new' | 'same' | 'changed' | 'removed';
  visibility: 'visible' | 'hidden';
  diff?: { text: string; json: { files: DiffFile[] } };
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
}

export function changeTrackingKey(read: Pick<ReadToTrack, 'url' | 'tag' | 'caller'>): string {
  return `firecrawl:change-tracking:${read.caller?.id ?? 'anonymous'}:${read.tag ?? ''}:${read.url}`;
}

/** Compares with the previous read and stores this one (a gone page keeps the last content it had). */
export async function trackChange(records: Keyv, read: ReadToTrack, now = new Date()): Promise<ChangeTracking> {
  const key = changeTrackingKey(read);
  const stored = (await records.get(key)) as StoredRead | undefined;
  const previous = stored?.v === RECORD_VERSION ? stored : undefined;
  const markdown = read.markdown.slice(0, MAX_STORED_CHARS);
  const tracking: ChangeTracking = {
    previousScrapeAt: previous?.scrapedAt ?? null,
    changeStatus: statusOf(previous, markdown, read.gone),
    visibility: 'visible',
  };
  if (read.modes.includes('git-diff') && previous && tracking.changeStatus !== 'new') {
    const diff = gitDiff(read.url, previous.markdown, read.gone ? '' : markdown);
    if (diff) tracking.diff = diff;
  }
  if (!read.gone)
    await records.set(key, { v: RECORD_VERSION, markdown, scrapedAt: now.toISOString() } satisfies StoredRead);
  return tracking;
}

function statusOf(previous: StoredRead | undefined, markdown: string, gone: boolean): ChangeTracking['changeStatus'] {
  if (!previous) return 'new';
  if (gone) return 'removed';
  return previous.markdown === markdown ? 'same' : 'changed';
}

function gitDiff(url: string, before: string, after: string): ChangeTracking['diff'] | undefined {
  const patch = structuredPatch(url, url, before, after, undefined, undefined, {
    context: 3,
    maxEditLength: MAX_EDIT_LENGTH,
  });
  if (!patch) return undefined;
  return { text: formatPatch(patch), json: { files: [fileOf(patch)] } };
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
