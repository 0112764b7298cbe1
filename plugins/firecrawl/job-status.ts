/**
 * A crawl's or batch scrape's status as Firecrawl answers it, from the one
 * job record and the documents kept with it (job-pages.ts): the status word
 * the clients validate, integer counts, `expiresAt`, and one page of
 * documents with `next`, an absolute URL to the following page, present only
 * while more stored documents follow (a client that follows `next` sees
 * each document once; the last page has no `next` key at all).
 */
import type { z } from 'zod';
import type { JobRecord } from '../../services/jobs/types.js';
import type { CrawlStatusWord, crawlStatusOutputSchema } from './crawl-schema.js';
import type { JobPages } from './job-pages.js';
import { FIRECRAWL_MOUNT, type FirecrawlVersion } from './routes.js';

/** Firecrawl's bound on one status page: 10 MiB of JSON, and at least one document. */
const MAX_PAGE_BYTES = 10 * 1024 * 1024;
/** Documents read for one status page when the caller sets no limit. */
const DEFAULT_PAGE_DOCUMENTS = 1000;

export type PagesStatus = z.infer<typeof crawlStatusOutputSchema>;

export function statusWordOf(job: Pick<JobRecord, 'status' | 'error'>): CrawlStatusWord {
  if (job.status === 'completed') return 'completed';
  if (job.status === 'failed') return job.error?.code === 'CANCELLED' ? 'cancelled' : 'failed';
  return 'scraping';
}

/** The path of a job's status route: crawls at /crawl, batch scrapes at /batch/scrape, whichever route read it. */
export function statusPath(version: FirecrawlVersion, isBatch: boolean, jobId: string): string {
  return `${FIRECRAWL_MOUNT}/${version}/${isBatch ? 'batch/scrape' : 'crawl'}/${encodeURIComponent(jobId)}`;
}

export interface StatusPage {
  skip: number;
  limit?: number;
  /** Where the status route is reached (absolute when the host knows its address), for `next`. */
  statusUrl: string;
}

export async function pagesStatus(
  pages: JobPages,
  job: JobRecord,
  page: StatusPage,
  keepFinishedMs: number,
): Promise<PagesStatus> {
  const state = await pages.state(job.id);
  const wanted = Math.min(Math.max(0, state.stored - page.skip), page.limit ?? DEFAULT_PAGE_DOCUMENTS);
  const documents = withinBytes(await pages.documents(job.id, page.skip, wanted));
  const nextSkip = page.skip + documents.length;
  const next =
    nextSkip < state.stored
      ? `${page.statusUrl}?skip=${nextSkip}${page.limit !== undefined ? `&limit=${page.limit}` : ''}`
      : undefined;
  const from = job.finishedAt ? Date.parse(job.finishedAt) : Date.now();
  const status = statusWordOf(job);
  return {
    success: true,
    status,
    completed: state.stored,
    total: Math.max(state.total, state.stored),
    creditsUsed: state.stored,
    expiresAt: new Date(from + keepFinishedMs).toISOString(),
    ...(next ? { next } : {}),
    data: documents,
    ...(status === 'failed' && job.error ? { error: job.error.message } : {}),
  };
}

/** The leading documents that fit in one page's bytes (at least one). */
function withinBytes<T>(documents: T[]): T[] {
  let bytes = 0;
  for (const [i, document] of documents.entries()) {
    bytes += JSON.stringify(document).length;
    if (bytes > MAX_PAGE_BYTES && i > 0) return documents.slice(0, i);
  }
  return documents;
}
