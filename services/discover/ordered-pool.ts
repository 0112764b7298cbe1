/**
 * Runs work over a queue that may grow while it runs, a few items at once,
 * but hands results back strictly in the order items were taken from it:
 * discovery stays breadth-first (or best-first, frontier.ts) and its output
 * deterministic whatever the network timing.
 */
import { toAppError, type AppError } from '../../core/errors.js';
import { fifoFrontier, type Frontier } from './frontier.js';

export type Settled<R> = { ok: true; value: R } | { ok: false; error: AppError };

export interface OrderedPoolOptions<T, R> {
  concurrency: number;
  work: (item: T) => Promise<R>;
  /** Called once per item, in the order taken; may add more items to the queue. */
  commit: (item: T, outcome: Settled<R>) => void;
  /** Checked before starting and before committing each item; true ends the run (in-flight work is abandoned). */
  shouldStop: () => boolean;
}

/** An array is worked first in, first out, items pushed onto it while it runs included. */
export async function runInOrder<T, R>(queue: T[] | Frontier<T>, options: OrderedPoolOptions<T, R>): Promise<void> {
  const frontier = Array.isArray(queue) ? fifoFrontier(queue) : queue;
  const inFlight: Array<{ item: T; outcome: Promise<Settled<R>> }> = [];
  for (;;) {
    while (!options.shouldStop() && inFlight.length < options.concurrency) {
      const item = frontier.next();
      if (item === undefined) break;
      inFlight.push({ item, outcome: settle(options.work(item)) });
    }
    const head = inFlight.shift();
    if (!head) return;
    const outcome = await head.outcome;
    if (options.shouldStop()) return;
    options.commit(head.item, outcome);
  }
}

/** Never rejects, so abandoned work cannot become an unhandled rejection. */
async function settle<R>(promise: Promise<R>): Promise<Settled<R>> {
  try {
    return { ok: true, value: await promise };
  } catch (error) {
    return { ok: false, error: toAppError(error) };
  }
}
