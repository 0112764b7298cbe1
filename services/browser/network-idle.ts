/**
 * Puppeteer's networkidle0 / networkidle2 for Playwright pages, which only
 * know "networkidle" (0 connections, 500 ms). We count the page's in-flight
 * requests ourselves and resolve once at most `maxInflight` have been open
 * for a continuous `idleMs`.
 */
import type { Page, Request } from 'playwright-core';

/** Puppeteer's definition: no more than N connections for at least 500 ms. */
export const NETWORK_IDLE_MS = 500;

export interface NetworkTracker {
  /** Requests started and not yet finished or failed. */
  inflight(): number;
  /** Resolves after at most maxInflight requests stayed open for idleMs; rejects with signal.reason on abort. */
  waitForIdle(maxInflight: number, idleMs: number, signal: AbortSignal): Promise<void>;
  dispose(): void;
}

/** Attach before navigating, so the document's own requests are counted. */
export function trackNetwork(page: Page): NetworkTracker {
  // A Set rather than a counter: a request that reports both "finished" and
  // "failed" (or a redirect hop reported twice) must not drive the count negative.
  const open = new Set<Request>();
  const listeners = new Set<() => void>();
  const changed = (): void => {
    for (const listener of listeners) listener();
  };
  const onRequest = (request: Request): void => {
    open.add(request);
    changed();
  };
  const onDone = (request: Request): void => {
    if (open.delete(request)) changed();
  };
  page.on('request', onRequest);
  page.on('requestfinished', onDone);
  page.on('requestfailed', onDone);

  return {
    inflight: () => open.size,
    waitForIdle(maxInflight, idleMs, signal) {
      return new Promise<void>((resolve, reject) => {
        if (signal.aborted) return reject(signal.reason);
        let timer: NodeJS.Timeout | undefined;
        const finish = (error?: unknown): void => {
          clearTimeout(timer);
          listeners.delete(check);
          signal.removeEventListener('abort', onAbort);
          if (error === undefined) resolve();
          else reject(error);
        };
        const onAbort = (): void => finish(signal.reason ?? new Error('aborted'));
        // The quiet window restarts whenever the page goes above the allowance.
        function check(): void {
          if (open.size > maxInflight) {
            clearTimeout(timer);
            timer = undefined;
          } else if (timer === undefined) {
            timer = setTimeout(() => finish(), idleMs);
          }
        }
        listeners.add(check);
        signal.addEventListener('abort', onAbort, { once: true });
        check();
      });
    },
    dispose() {
      page.off('request', onRequest);
      page.off('requestfinished', onDone);
      page.off('requestfailed', onDone);
      open.clear();
      listeners.clear();
    },
  };
}

/** How long settleNetwork waits at most, and the quiet window it waits for (0 open requests). */
const SETTLE_CAP_MS = 3000;
const SETTLE_QUIET_MS = 200;

/**
 * Waits briefly for the page's requests to finish (after a scroll step, a
 * click); a page that never goes quiet is not an error here. Rejects only
 * when signal aborts.
 */
export async function settleNetwork(tracker: NetworkTracker, signal: AbortSignal): Promise<void> {
  const cap = AbortSignal.any([signal, AbortSignal.timeout(SETTLE_CAP_MS)]);
  await tracker.waitForIdle(0, SETTLE_QUIET_MS, cap).catch((error: unknown) => {
    if (signal.aborted) throw error;
  });
}
