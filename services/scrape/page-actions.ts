/**
 * What a read request may ask of the page besides reading it — page actions
 * (Firecrawl's names and shapes), a phone profile, extra request headers, a
 * wait after load — as areas validate it (the zod schemas below, exported for
 * every area's input), and the reader's own rules for it: executeJavascript
 * only where the configuration enables it, at most a minute of waiting in
 * all, and never a hop-by-hop or host header from a caller.
 */
import { z } from 'zod';
import { AppError } from '../../core/errors.js';
import type { PageAction, PageActionOutcome, PageActionType } from '../browser/browser-pool.js';

export type { PageAction, PageActionType } from '../browser/browser-pool.js';

/** Firecrawl's bounds: at most 50 actions, and at most 60 s of waiting (waitFor and every wait) per page. */
export const MAX_PAGE_ACTIONS = 50;
export const MAX_PAGE_WAIT_MS = 60_000;
const MAX_SELECTOR_CHARS = 2000;
const MAX_TEXT_CHARS = 100_000;
const MAX_HEADERS = 50;

const selector = z.string().min(1).max(MAX_SELECTOR_CHARS);
const waitMs = z.number().int().min(0).max(MAX_PAGE_WAIT_MS);

const waitAction = z
  .object({ type: z.literal('wait'), milliseconds: waitMs.optional(), selector: selector.optional() })
  .strict()
  .refine((action) => (action.milliseconds === undefined) !== (action.selector === undefined), {
    message: 'a wait action takes exactly one of milliseconds and selector',
  });

/** One page action; the discriminator is `type`. */
export const pageActionSchema = z.discriminatedUnion('type', [
  waitAction,
  z.object({ type: z.literal('click'), selector, all: z.boolean().optional() }).strict(),
  z.object({ type: z.literal('write'), text: z.string().max(MAX_TEXT_CHARS) }).strict(),
  z.object({ type: z.literal('press'), key: z.string().min(1).max(100) }).strict(),
  z
    .object({ type: z.literal('scroll'), direction: z.enum(['up', 'down']).optional(), selector: selector.optional() })
    .strict(),
  z
    .object({
      type: z.literal('screenshot'),
      fullPage: z.boolean().optional(),
      quality: z.number().int().min(0).max(100).optional(),
    })
    .strict(),
  z.object({ type: z.literal('scrape') }).strict(),
  z.object({ type: z.literal('executeJavascript'), script: z.string().min(1).max(MAX_TEXT_CHARS) }).strict(),
]);

export const pageActionsSchema = z.array(pageActionSchema).max(MAX_PAGE_ACTIONS);

/** Header names are HTTP tokens; values hold no line breaks (they would start another header). */
export const pageHeadersSchema = z
  .record(
    z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'a header name is an HTTP token'),
    z
      .string()
      .max(8192)
      .regex(/^[^\r\n\0]*$/, 'a header value holds no line breaks'),
  )
  .refine((headers) => Object.keys(headers).length <= MAX_HEADERS, { message: `at most ${MAX_HEADERS} headers` });

/** Milliseconds to wait after the page has loaded, before actions and capture. */
export const waitForSchema = waitMs;

// The schema and the browser's type say the same thing.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const schemaMatchesBrowser: Same<z.infer<typeof pageActionSchema>, PageAction> = true;
void schemaMatchesBrowser;

/**
 * What the actions produced, as the read result carries it (the browser's outcome with each screenshot as base64 PNG,
 * no data: prefix); each list in action order.
 */
export type PageActionResults = Omit<PageActionOutcome, 'screenshots'> & { screenshots: string[] };

/** Which action failed (ACTION_FAILED pages). */
export interface FailedAction {
  index: number;
  type: PageActionType;
}

export interface PageActionRules {
  allowExecuteJavascript: boolean;
}

/**
 * Refuses a request before anything is read: executeJavascript where the
 * configuration does not enable it (ACTION_NOT_ALLOWED), more waiting than
 * MAX_PAGE_WAIT_MS (INVALID_INPUT).
 */
export function checkPageActions(
  request: { actions?: readonly PageAction[]; waitFor?: number },
  rules: PageActionRules,
): void {
  const actions = request.actions ?? [];
  const script = actions.findIndex((action) => action.type === 'executeJavascript');
  if (script >= 0 && !rules.allowExecuteJavascript) {
    throw new AppError(
      'ACTION_NOT_ALLOWED',
      `action ${script} (executeJavascript) is not enabled on this installation (browser.allowExecuteJavascript)`,
      {
        details: { action_index: script, action_type: 'executeJavascript' },
      },
    );
  }
  const waited = actions.reduce(
    (total, action) => total + (action.type === 'wait' ? (action.milliseconds ?? 0) : 0),
    request.waitFor ?? 0,
  );
  if (waited > MAX_PAGE_WAIT_MS)
    throw new AppError(
      'INVALID_INPUT',
      `waitFor and the wait actions add up to ${waited} ms; at most ${MAX_PAGE_WAIT_MS} ms`,
      { details: { field: 'actions' } },
    );
}

/** Hop-by-hop headers and those that name the connection or the body belong to the client, never to a caller. */
const CONNECTION_HEADERS = new Set([
  'host',
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'proxy-authenticate',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'content-length',
  'expect',
  'http2-settings',
]);

/** A caller's headers without the ones it may not set (dropped, not refused: clients send them in good faith). */
export function callerHeaders(headers: Record<string, string> | undefined): Record<string, string> | undefined {
  if (!headers) return undefined;
  const kept = Object.entries(headers).filter(([name]) => !CONNECTION_HEADERS.has(name.toLowerCase()));
  return kept.length > 0 ? Object.fromEntries(kept) : undefined;
}
