/**
 * robots.txt before the main frame's every navigation is sent: the first
 * one, each redirect hop and script or meta-refresh navigations. Playwright's
 * route() cannot do this: it continues redirect hops itself without calling
 * the handler, so Chromium would request a disallowed redirect target before
 * anyone could ask. The DevTools Fetch domain pauses every hop (a redirected
 * request is paused like a new one), so a page's own CDP session intercepts
 * document requests at the request stage and fails a refused one as
 * BlockedByClient; the refusal is kept in the context state for the answer.
 *
 * Only the main frame's documents are checked: that is the page Quarry reads,
 * as a static fetch reads only the document. Subresources and frames of an
 * allowed page are loaded as a browser loads them (checking each would fetch
 * robots.txt from every CDN and ad host first); the outbound guard still
 * checks all of their addresses.
 */
import type { CDPSession, Page } from 'playwright-core';
import { AppError, isAppError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { untilAborted } from '../../core/abort.js';
import type { GuardedContextState } from './request-guard.js';

export interface NavigationCheck {
  /** Throws (ROBOTS_DISALLOWED, …) when the main frame must not navigate to the URL. */
  (url: string, signal: AbortSignal): Promise<void>;
}

interface RequestPaused {
  requestId: string;
  request: { url: string };
  frameId: string;
}

/** Enables the interception on page (before its first navigation); ended stops checks still pending. */
export async function guardNavigations(
  page: Page,
  check: NavigationCheck,
  state: GuardedContextState,
  logger: Logger,
  ended: AbortSignal,
): Promise<void> {
  const session = await page.context().newCDPSession(page);
  const { frameTree } = (await session.send('Page.getFrameTree')) as { frameTree: { frame: { id: string } } };
  const mainFrameId = frameTree.frame.id;
  session.on(
    'Fetch.requestPaused',
    (event: RequestPaused) => void decide(session, event, event.frameId === mainFrameId, check, state, logger, ended),
  );
  await session.send('Fetch.enable', {
    patterns: [{ urlPattern: '*', resourceType: 'Document', requestStage: 'Request' }],
  });
}

async function decide(
  session: CDPSession,
  event: RequestPaused,
  mainFrame: boolean,
  check: NavigationCheck,
  state: GuardedContextState,
  logger: Logger,
  ended: AbortSignal,
): Promise<void> {
  // A request may be settled after its page closed; those late errors do not matter.
  const ignore = (): void => undefined;
  const { url } = event.request;
  if (!mainFrame || !/^https?:/i.test(url)) {
    await session.send('Fetch.continueRequest', { requestId: event.requestId }).catch(ignore);
    return;
  }
  try {
    await untilAborted(check(url, ended), ended);
  } catch (error) {
    if (!ended.aborted) {
      const refusal = isAppError(error)
        ? error
        : new AppError('FORBIDDEN_ADDRESS', `refused navigating to ${url}`, { cause: error });
      state.navigationRefusal = refusal;
      state.refusedRequests++;
      logger.debug({ url, code: refusal.code }, 'browser navigation refused before it was sent');
    }
    await session
      .send('Fetch.failRequest', {
        requestId: event.requestId,
        errorReason: ended.aborted ? 'Aborted' : 'BlockedByClient',
      })
      .catch(ignore);
    return;
  }
  await session.send('Fetch.continueRequest', { requestId: event.requestId }).catch(ignore);
}
