import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Thrown by a probe when what it waits for can no longer happen (the process exited, the server
 * answered an error): `until` stops at once with this error instead of polling to the timeout.
 */
export class GiveUp extends Error {
  override name = 'GiveUp';
}

/**
 * Polls `probe` until it answers something truthy, each poll a real read (no fixed wait stands in
 * for the event). This is the one way tests wait (`test/architecture.test.ts` fails on a
 * hand-written polling loop or a bare sleep in a test file). A probe that throws counts as "not
 * yet": tests use this while an instance is down or taking over, and assertions inside a probe
 * (`expect(...)`) retry until they hold; the last such failure is named in the timeout error, so a
 * wait that never ends says what it last saw. A probe that throws `GiveUp` ends the wait with it.
 * `what` may be a function, read only when the wait times out (e.g. to show the last answer).
 */
export async function until<T>(
  what: string | (() => string),
  probe: () => Promise<T | undefined | null | false>,
  timeoutMs: number,
  intervalMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    lastError = undefined;
    const value = await probe().catch((error: unknown) => {
      if (error instanceof GiveUp) throw error;
      lastError = error;
      return undefined;
    });
    if (value) return value;
    if (Date.now() > deadline) {
      const description = typeof what === 'function' ? what() : what;
      const last = lastError === undefined ? '' : `; last attempt: ${(lastError as Error).message ?? lastError}`;
      throw new Error(`waited ${timeoutMs} ms for ${description}${last}`, { cause: lastError });
    }
    await sleep(intervalMs);
  }
}
