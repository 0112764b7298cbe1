/**
 * Infinite and virtualised scrolling on an already loaded page. Each round
 * walks from the current position to the bottom one viewport at a time,
 * capturing the main content after every step (a virtualised list only holds
 * the rows near the viewport, so jumping straight to the bottom would skip
 * the middle), then waits at the bottom for more content to load. It stops
 * when a round changes neither the page height nor the content, after
 * maxScrolls rounds, or shortly before the deadline (returning what it has).
 */
import type { Page } from 'playwright-core';
import { settleNetwork, type NetworkTracker } from './network-idle.js';
import { abortableSleep, untilAborted } from '../../core/abort.js';

export interface ScrollCollectOptions {
  /** Rounds of "scroll to the bottom, wait". */
  maxScrolls: number;
  /** Wait at the bottom of each round, for lazy loaders to fire. */
  scrollDelayMs: number;
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface ScrollCollectResult {
  /** The whole document after the last round. */
  html: string;
  /** Main-content HTML after each step, in order, each distinct snapshot once. */
  snapshots: string[];
  finalUrl: string;
  /** Every URL the main frame was sent to, redirect hops included (browser-pool.ts RenderedPage). */
  navigationUrls: string[];
}

/** Bounds on one call, so a pathological page cannot hold a browser page forever or fill memory. */
const MAX_STEPS_PER_ROUND = 200;
const MAX_SNAPSHOTS = 1000;

interface Step {
  atBottom: boolean;
  height: number;
  content: string;
}

export async function collectByScrolling(
  page: Page,
  tracker: NetworkTracker,
  options: ScrollCollectOptions,
  deadline: number,
  signal: AbortSignal,
): Promise<Omit<ScrollCollectResult, 'navigationUrls'>> {
  // Leave time to serialise the final document before the hard deadline closes the page.
  const softDeadline = deadline - Math.min(2000, options.timeoutMs * 0.2);
  const snapshots: string[] = [];
  const seen = new Set<string>();
  const record = (content: string): void => {
    if (seen.has(content) || snapshots.length >= MAX_SNAPSHOTS) return;
    seen.add(content);
    snapshots.push(content);
  };

  // page.evaluate has no timeout: a page whose main thread is stuck would hold every step.
  const run = (move: 'none' | 'step' | 'bottom'): Promise<Step> =>
    untilAborted(page.evaluate(scrollStep, move), signal);
  const settleAndMeasure = async (): Promise<Step> => {
    await settleNetwork(tracker, signal);
    const step = await run('none');
    record(step.content);
    return step;
  };

  let previous = await settleAndMeasure();
  for (let round = 0; round < options.maxScrolls && Date.now() < softDeadline; round++) {
    let step = previous;
    for (let n = 0; n < MAX_STEPS_PER_ROUND && !step.atBottom && Date.now() < softDeadline; n++) {
      step = await run('step');
      record(step.content);
    }
    await abortableSleep(Math.min(options.scrollDelayMs, Math.max(0, softDeadline - Date.now())), signal);
    await settleNetwork(tracker, signal);
    // A loader may only fire on a fresh scroll event at the very end, which
    // staying at the bottom never sends: nudge up and back down.
    record((await run('bottom')).content);
    const after = await settleAndMeasure();
    if (after.height === previous.height && after.content === previous.content) break;
    previous = after;
  }
  return { html: await untilAborted(page.content(), signal), snapshots, finalUrl: page.url() };
}

/**
 * Runs in the page: finds what scrolls (the document, or the tallest
 * scrollable element when the document itself does not), moves it down by
 * most of a viewport when asked, waits two frames so the page's scroll
 * handlers re-render, and reports position, height and the main content.
 */
async function scrollStep(move: 'none' | 'step' | 'bottom'): Promise<Step> {
  const root = document.scrollingElement ?? document.documentElement;
  let target: Element = root;
  if (root.scrollHeight <= root.clientHeight + 1) {
    for (const element of Array.from(document.querySelectorAll('body *'))) {
      const overflow = getComputedStyle(element).overflowY;
      const scrollable =
        (overflow === 'auto' || overflow === 'scroll') && element.scrollHeight > element.clientHeight + 1;
      if (scrollable && (target === root || element.scrollHeight > target.scrollHeight)) target = element;
    }
  }
  // Two frames let scroll handlers and the re-render after them run; the timer covers throttled frames.
  const frames = (): Promise<void> =>
    new Promise<void>((resolve) => {
      setTimeout(resolve, 100);
      requestAnimationFrame(() => requestAnimationFrame(() => resolve()));
    });
  // Setting scrollTop fires the page's own scroll listeners, as a user's scroll would.
  if (move === 'step') {
    target.scrollTop = Math.min(
      target.scrollTop + Math.max(100, Math.floor(target.clientHeight * 0.8)),
      target.scrollHeight,
    );
    await frames();
  } else if (move === 'bottom') {
    target.scrollTop = Math.max(0, target.scrollHeight - target.clientHeight - 60);
    await frames();
    target.scrollTop = target.scrollHeight;
    await frames();
  }
  const main = target !== root ? target : (document.querySelector('main, [role="main"]') ?? document.body);
  return {
    atBottom: target.scrollTop + target.clientHeight >= target.scrollHeight - 2,
    height: target.scrollHeight,
    content: main ? main.outerHTML : '',
  };
}
