/**
 * Page actions (Firecrawl's names) run in order on an already loaded,
 * guarded page: wait, click, write, press, scroll, screenshot, scrape,
 * executeJavascript. Whatever an action sets off (a form submitted, a link
 * followed, a lazy loader) is given time to settle before the next one, and
 * every navigation it causes has gone through the same guard as the first
 * one (navigation-guard.ts, request-guard.ts): a refused one ends the run
 * with the refusal. An action that cannot be done is ACTION_FAILED naming
 * its index and type; everything stays under the page's one deadline.
 *
 * Whether executeJavascript may run at all is the reader's decision
 * (services/scrape), not the browser's.
 */
import type { Locator, Page } from 'playwright-core';
import { abortableSleep, untilAborted } from '../../core/abort.js';
import { AppError, isAppError } from '../../core/errors.js';
import { settleNetwork, type NetworkTracker } from './network-idle.js';
import { screenshotPng } from './page-render.js';
import type { GuardedContextState } from './request-guard.js';

export type PageAction =
  | { type: 'wait'; milliseconds?: number; selector?: string }
  | { type: 'click'; selector: string; all?: boolean }
  | { type: 'write'; text: string }
  | { type: 'press'; key: string }
  | { type: 'scroll'; direction?: 'up' | 'down'; selector?: string }
  | { type: 'screenshot'; fullPage?: boolean; quality?: number }
  | { type: 'scrape' }
  | { type: 'executeJavascript'; script: string };

export type PageActionType = PageAction['type'];

/** What the actions produced, each list in action order. */
export interface PageActionOutcome {
  /** PNGs, one per screenshot action. */
  screenshots: Buffer[];
  /** The page's URL and HTML at each scrape action. */
  scrapes: Array<{ url: string; html: string }>;
  /** Each executeJavascript's value (null for undefined) and its JavaScript type (typeof, "null" for null). */
  javascriptReturns: Array<{ type: string; value: unknown }>;
}

export interface ActionContext {
  page: Page;
  tracker: NetworkTracker;
  state: GuardedContextState;
  deadline: number;
  signal: AbortSignal;
}

/**
 * How long a click or a scroll waits for its selector: long enough for a page
 * that is still drawing, short enough that a wrong selector is answered
 * quickly. A `wait` for a selector may use the whole deadline instead.
 */
export const ACTION_SELECTOR_TIMEOUT_MS = 5000;
/** Kept back from the deadline by selector waits, so their failure is reported before the page is closed. */
const DEADLINE_RESERVE_MS = 1000;
/** Elements a click with `all` clicks at most. */
const MAX_CLICK_ALL = 100;

export async function runPageActions(
  actions: readonly PageAction[],
  context: ActionContext,
): Promise<PageActionOutcome> {
  const outcome: PageActionOutcome = { screenshots: [], scrapes: [], javascriptReturns: [] };
  for (const [index, action] of actions.entries()) {
    try {
      await runAction(action, context, outcome);
    } catch (error) {
      throw actionFailure(error, index, action, context);
    }
    if (context.state.navigationRefusal) throw context.state.navigationRefusal;
  }
  return outcome;
}

async function runAction(action: PageAction, context: ActionContext, outcome: PageActionOutcome): Promise<void> {
  const { page, signal, deadline } = context;
  switch (action.type) {
    case 'wait':
      if (action.selector !== undefined)
        await page
          .locator(action.selector)
          .first()
          .waitFor({ state: 'visible', timeout: selectorTimeout(deadline, Infinity) });
      else await abortableSleep(action.milliseconds ?? 0, signal);
      return;
    case 'click':
      await causingNavigation(context, () =>
        click(
          page.locator(action.selector),
          action.all ?? false,
          selectorTimeout(deadline, ACTION_SELECTOR_TIMEOUT_MS),
        ),
      );
      return;
    case 'write':
      await causingNavigation(context, () => untilAborted(page.keyboard.type(action.text), signal));
      return;
    case 'press':
      await causingNavigation(context, () => untilAborted(page.keyboard.press(action.key), signal));
      return;
    case 'scroll':
      await scroll(context, action.direction ?? 'down', action.selector);
      await settleNetwork(context.tracker, signal);
      return;
    case 'screenshot':
      outcome.screenshots.push(await screenshotPng(page, action.fullPage ?? false, deadline, signal));
      return;
    case 'scrape':
      outcome.scrapes.push({ url: page.url(), html: await untilAborted(page.content(), signal) });
      return;
    case 'executeJavascript': {
      const value = await causingNavigation(context, () => untilAborted(evaluateScript(page, action.script), signal));
      outcome.javascriptReturns.push({ type: value === null ? 'null' : typeof value, value: value ?? null });
      return;
    }
  }
}

async function click(locator: Locator, all: boolean, timeout: number): Promise<void> {
  if (!all) return locator.first().click({ timeout });
  await locator.first().waitFor({ state: 'attached', timeout });
  for (const element of (await locator.all()).slice(0, MAX_CLICK_ALL)) await element.click({ timeout });
}

/** One viewport (or one element's height) up or down; the page's own scroll listeners fire as for a user's scroll. */
async function scroll(
  { page, deadline, signal }: ActionContext,
  direction: 'up' | 'down',
  selector: string | undefined,
): Promise<void> {
  const sign = direction === 'down' ? 1 : -1;
  if (selector === undefined) {
    await untilAborted(
      page.evaluate((by) => window.scrollBy(0, by * window.innerHeight), sign),
      signal,
    );
    return;
  }
  const timeout = selectorTimeout(deadline, ACTION_SELECTOR_TIMEOUT_MS);
  await page
    .locator(selector)
    .first()
    .evaluate((element, by) => element.scrollBy(0, by * element.clientHeight), sign, { timeout });
}

/**
 * An input may start a navigation (a submitted form, a followed link, a
 * script's location change) a moment after it returns: let the page's
 * requests go quiet, and when the main frame was sent somewhere, wait for
 * the new document to load before the next action looks at it.
 */
async function causingNavigation<T>(context: ActionContext, act: () => Promise<T>): Promise<T> {
  const { page, tracker, state, deadline, signal } = context;
  const navigationsBefore = state.navigationCount;
  const result = await act();
  await settleNetwork(tracker, signal);
  if (state.navigationCount > navigationsBefore && !state.navigationRefusal) {
    await page.waitForLoadState('load', { timeout: Math.max(1, deadline - Date.now()) });
  }
  return result;
}

/**
 * A script is an expression ("document.title") or a function body ("return document.title"); async bodies are awaited.
 */
async function evaluateScript(page: Page, script: string): Promise<unknown> {
  try {
    return await page.evaluate(script);
  } catch (error) {
    if (!(error instanceof Error) || !/Illegal return statement|await is only valid/.test(error.message)) throw error;
    return page.evaluate(`(async () => {\n${script}\n})()`);
  }
}

function selectorTimeout(deadline: number, cap: number): number {
  return Math.max(1, Math.min(cap, deadline - Date.now() - DEADLINE_RESERVE_MS));
}

/**
 * The page's deadline, a cancellation and a refused navigation keep their own codes; anything else is this action's
 * failure.
 */
function actionFailure(error: unknown, index: number, action: PageAction, { signal, state }: ActionContext): unknown {
  if (signal.aborted) return error;
  if (state.navigationRefusal) return state.navigationRefusal;
  if (isAppError(error)) return error;
  const firstLine = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
  const reason = firstLine.replace(/^\w+\.\w+: /, '');
  const selector = 'selector' in action ? action.selector : undefined;
  return new AppError('ACTION_FAILED', `action ${index} (${action.type}) could not be done: ${reason}`, {
    details: { action_index: index, action_type: action.type, ...(selector !== undefined ? { selector } : {}) },
    cause: error,
  });
}
