/**
 * Virtual scrolling through the browser pool's scrollAndCollect, when this
 * build has it: pages that replace their items while scrolling (virtualised
 * lists) are scrolled step by step and every snapshot's content collected.
 * Without it, or without Chromium, each result says why it was not used.
 */
export interface ScrollResult {
  html: string;
  snapshots: unknown;
  finalUrl: string;
}

export interface ScrollOptions {
  maxScrolls: number;
  scrollDelayMs: number;
  timeoutMs: number;
  signal?: AbortSignal;
}

interface ScrollCapable {
  available?(): boolean;
  scrollAndCollect?(url: string, options: ScrollOptions): Promise<ScrollResult>;
}

export type Scroller = { ok: true; scroll(url: string, options: ScrollOptions): Promise<ScrollResult> } | { ok: false; reason: string };

export function scrollerFrom(browser: unknown): Scroller {
  const pool = browser as ScrollCapable | undefined;
  if (!pool) return { ok: false, reason: 'virtual scrolling unavailable: no browser pool on this installation' };
  if (typeof pool.scrollAndCollect !== 'function') return { ok: false, reason: 'virtual scrolling unavailable: this build\'s browser pool cannot scroll and collect pages' };
  if (typeof pool.available === 'function' && !pool.available()) return { ok: false, reason: 'virtual scrolling unavailable: Chromium was not found (see GET /api/v1/enhanced/features)' };
  return { ok: true, scroll: (url, options) => pool.scrollAndCollect!(url, options) };
}

/** How many snapshots a result reports, whatever shape the pool returns them in. */
export function snapshotCount(snapshots: unknown): number {
  if (Array.isArray(snapshots)) return snapshots.length;
  if (typeof snapshots === 'number') return snapshots;
  return 0;
}
