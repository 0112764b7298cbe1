/**
 * Firecrawl's crawl watcher: a WebSocket at the crawl's (or batch scrape's)
 * status route, which firecrawl-js opens with `watcher()` (v2) and
 * `crawlUrlAndWatch` (v1), the key as its subprotocol. It answers from what
 * every instance shares: the job's documents in the record store, read through
 * the status route (ownership, paging), and the job service's change notices
 * (a page read announces progress), with a bounded wait as the safety net, so
 * a watcher connected to any instance follows a crawl running on any other.
 *
 * Messages: `catchup` (the status and its first page of documents), one
 * `document` per document after those, then the end. v2: `done` when
 * completed; a failed or cancelled job ends with a `catchup` carrying its
 * status (the watcher ends on it), a failure after an `error`. v1's watcher
 * reads the end from the close frame's reason: `{"type":"done"}` or
 * `{"type":"error","error":…}`.
 */
import type { CallContext } from '../../core/capability.js';
import { toAppError } from '../../core/errors.js';
import type { PagesStatus } from './job-status.js';
import type { FirecrawlVersion } from './routes.js';
import type { FirecrawlServices } from './uses.js';

/** The longest a watcher waits for a change notice before reading the job again anyway. */
const RECHECK_MS = 2000;

type StatusReader = (input: { id: string; skip: number }, ctx: CallContext) => Promise<PagesStatus>;

interface Watched {
  id: string;
}

export interface WatcherMessage {
  type: 'catchup' | 'document' | 'done' | 'error';
  data?: unknown;
  error?: string;
}

const finished = (status: PagesStatus['status']): boolean => status !== 'scraping';

/** The status answer without `next` and the documents: what a watcher's snapshot carries besides them. */
function summary(status: PagesStatus, data: unknown[]) {
  const { next: _next, success: _success, data: _documents, ...rest } = status;
  return { ...rest, data };
}

export function crawlWatcher(services: Pick<FirecrawlServices, 'jobs'>, version: FirecrawlVersion, read: StatusReader) {
  return async function* watch(raw: unknown, ctx: CallContext): AsyncGenerator<WatcherMessage, string | undefined> {
    const { id } = raw as Watched;
    let status: PagesStatus;
    try {
      status = await read({ id, skip: 0 }, ctx);
    } catch (error) {
      const message = toAppError(error).message;
      if (version === 'v2') yield { type: 'error', error: message };
      return JSON.stringify({ type: 'error', error: message });
    }
    yield { type: 'catchup', data: summary(status, status.data) };
    let sent = status.data.length;
    let heard = status.completed;
    for (;;) {
      while (status.next !== undefined || sent < status.completed) {
        status = await read({ id, skip: sent }, ctx);
        if (status.data.length === 0) break;
        for (const document of status.data) yield { type: 'document', data: document };
        sent += status.data.length;
      }
      if (finished(status.status)) break;
      heard = await changeOf(services, id, heard, ctx.signal);
      if (ctx.signal.aborted) return undefined;
      status = await read({ id, skip: sent }, ctx);
      for (const document of status.data) yield { type: 'document', data: document };
      sent += status.data.length;
    }
    return yield* ending(version, status);
  };
}

async function* ending(version: FirecrawlVersion, status: PagesStatus): AsyncGenerator<WatcherMessage, string> {
  const failure = status.error ?? `the job ended ${status.status}`;
  if (version === 'v1') {
    return JSON.stringify(status.status === 'completed' ? { type: 'done' } : { type: 'error', error: failure });
  }
  if (status.status === 'completed') {
    yield { type: 'done', data: summary(status, []) };
    return '';
  }
  if (status.status === 'failed') yield { type: 'error', error: failure };
  yield { type: 'catchup', data: summary(status, []) };
  return '';
}

/**
 * Waits for the job to move past `heard` pages read (its progress notice), to finish, or RECHECK_MS; answers the
 * progress heard. The notice of the progress already known (the job service repeats the stored one first) does not
 * wake it.
 */
async function changeOf(
  services: Pick<FirecrawlServices, 'jobs'>,
  id: string,
  heard: number,
  signal: AbortSignal,
): Promise<number> {
  const woken = new AbortController();
  let latest = heard;
  await services.jobs.waitFor(id, {
    timeoutMs: RECHECK_MS,
    signal: AbortSignal.any([signal, woken.signal]),
    onProgress: (progress) => {
      if (progress.progress <= latest) return;
      latest = progress.progress;
      woken.abort();
    },
  });
  return latest;
}

/** A status capability that is also its watcher's WebSocket (the same route, the same reads). */
export function withWatcher<C extends { handler: StatusReader; http: object }>(
  status: C,
  services: Pick<FirecrawlServices, 'jobs'>,
  version: FirecrawlVersion,
): C {
  const read: StatusReader = (input, ctx) => status.handler(input, ctx);
  return { ...status, http: { ...status.http, websocket: crawlWatcher(services, version, read) } };
}
