/**
 * Retention: pages older than retentionDays go, then, while the index holds
 * more than maxChunks chunks, whole pages go oldest first (by fetch time), so
 * no page is ever left with only some of its chunks.
 */
import type { Table } from '@lancedb/lancedb';
import { urlListPredicate } from './filters.js';

const DAY_MS = 86_400_000;
/** URLs per DELETE: keeps each predicate (and the commit) a manageable size. */
const DELETE_BATCH = 500;

interface PageAge {
  url: string;
  fetchedAt: number;
  chunks: number;
}

/** Pages to remove, oldest first, so that at most maxChunks chunks remain. Pure, for tests. */
export function pagesOverLimit(pages: PageAge[], maxChunks: number): string[] {
  let excess = pages.reduce((sum, page) => sum + page.chunks, 0) - maxChunks;
  const victims: string[] = [];
  const byAge = [...pages].sort((a, b) => a.fetchedAt - b.fetchedAt || a.url.localeCompare(b.url));
  for (const page of byAge) {
    if (excess <= 0) break;
    victims.push(page.url);
    excess -= page.chunks;
  }
  return victims;
}

async function pageAges(table: Table): Promise<PageAge[]> {
  const pages = new Map<string, PageAge>();
  const rows = await table.query().select(['url', 'fetched_at']).toArray();
  for (const row of rows as Array<{ url: string; fetched_at: bigint | number }>) {
    const fetchedAt = Number(row.fetched_at);
    const page = pages.get(row.url);
    if (page) {
      page.chunks++;
      page.fetchedAt = Math.max(page.fetchedAt, fetchedAt);
    } else pages.set(row.url, { url: row.url, fetchedAt, chunks: 1 });
  }
  return [...pages.values()];
}

export async function deleteUrls(table: Table, urls: string[]): Promise<number> {
  let removed = 0;
  for (let i = 0; i < urls.length; i += DELETE_BATCH) {
    removed += (await table.delete(urlListPredicate(urls.slice(i, i + DELETE_BATCH)))).numDeletedRows;
  }
  return removed;
}

/** Returns the chunks removed. 0 for either bound means "no bound", as in the config. */
export async function applyRetention(
  table: Table,
  retentionDays: number,
  maxChunks: number,
  now = Date.now(),
): Promise<number> {
  let removed = 0;
  if (retentionDays > 0) removed += (await table.delete(`fetched_at < ${now - retentionDays * DAY_MS}`)).numDeletedRows;
  if (maxChunks > 0 && (await table.countRows()) > maxChunks) {
    removed += await deleteUrls(table, pagesOverLimit(await pageAges(table), maxChunks));
  }
  return removed;
}
