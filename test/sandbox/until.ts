import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Polls `probe` until it answers something truthy, each poll a real read (no fixed wait stands in
 * for the event). A probe that throws counts as "not yet": tests use this while an instance is
 * down or taking over.
 */
export async function until<T>(
  what: string,
  probe: () => Promise<T | undefined | null | false>,
  timeoutMs: number,
  intervalMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`waited ${timeoutMs} ms for ${what}`);
    await sleep(intervalMs);
  }
}
