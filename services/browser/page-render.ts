/**
 * What happens on an already guarded page: navigate and wait the way the
 * caller asked (Playwright's own events, or Puppeteer's networkidle0/2
 * counted by a NetworkTracker), then capture HTML, screenshot and PDF.
 */
import type { Page, Response } from 'playwright-core';
import { untilAborted } from '../../core/abort.js';
import { NETWORK_IDLE_MS, type NetworkTracker } from './network-idle.js';

/** Playwright's events plus Puppeteer's two network-idle modes. */
export type WaitUntil = 'load' | 'domcontentloaded' | 'networkidle' | 'networkidle0' | 'networkidle2';

/** How many open connections each Puppeteer mode tolerates. */
const IDLE_ALLOWANCE: Partial<Record<WaitUntil, number>> = { networkidle0: 0, networkidle2: 2 };

/**
 * Full-page screenshots are cut at this height: Chromium cannot paint one
 * texture much taller than 16k px, and an endless page would otherwise make a
 * PNG of tens of megabytes.
 */
export const MAX_SCREENSHOT_HEIGHT = 8000;

export interface CaptureRequest {
  screenshot?: boolean;
  pdf?: boolean;
}

export interface Captured {
  html: string;
  screenshot?: Buffer;
  pdf?: Buffer;
}

/** Navigates and waits; rejects on timeout (Playwright's, or signal's for the idle modes). */
export async function navigateAndWait(
  page: Page,
  url: string,
  tracker: NetworkTracker,
  waitUntil: WaitUntil,
  deadline: number,
  signal: AbortSignal,
): Promise<Response | null> {
  const allowance = IDLE_ALLOWANCE[waitUntil];
  // Puppeteer's idle modes also imply the load event has fired; wait for it first.
  const playwrightEvent = allowance === undefined ? (waitUntil as 'load' | 'domcontentloaded' | 'networkidle') : 'load';
  const response = await page.goto(url, { waitUntil: playwrightEvent, timeout: remaining(deadline) });
  if (allowance !== undefined) await tracker.waitForIdle(allowance, NETWORK_IDLE_MS, signal);
  return response;
}

/**
 * HTML first (what the scripts built), then the screenshot, then the PDF
 * (which switches to print media). page.content, page.evaluate and page.pdf
 * take no timeout, so each step stops waiting when signal aborts.
 */
export async function capture(
  page: Page,
  request: CaptureRequest,
  deadline: number,
  signal: AbortSignal,
): Promise<Captured> {
  const captured: Captured = { html: await untilAborted(page.content(), signal) };
  if (request.screenshot) captured.screenshot = await screenshotPng(page, true, deadline, signal);
  if (request.pdf) captured.pdf = await untilAborted(page.pdf({ format: 'A4', printBackground: true }), signal);
  return captured;
}

/**
 * A PNG of the viewport, or of the whole page cut at MAX_SCREENSHOT_HEIGHT
 * (and at the viewport's width). In CSS pixels: a phone profile's device
 * scale does not multiply its size.
 */
export async function screenshotPng(
  page: Page,
  fullPage: boolean,
  deadline: number,
  signal: AbortSignal,
): Promise<Buffer> {
  if (!fullPage) return page.screenshot({ type: 'png', scale: 'css', timeout: remaining(deadline) });
  const measuring = page.evaluate(() => ({
    width: document.documentElement.scrollWidth,
    height: document.documentElement.scrollHeight,
  }));
  const size = await untilAborted(measuring, signal);
  const viewport = page.viewportSize() ?? { width: 1280, height: 720 };
  return page.screenshot({
    type: 'png',
    fullPage: true,
    scale: 'css',
    clip: {
      x: 0,
      y: 0,
      width: Math.max(1, Math.min(size.width, viewport.width)),
      height: Math.max(1, Math.min(size.height, MAX_SCREENSHOT_HEIGHT)),
    },
    timeout: remaining(deadline),
  });
}

function remaining(deadline: number): number {
  return Math.max(1, deadline - Date.now());
}
