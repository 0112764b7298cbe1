/**
 * A fair counting semaphore: waiters are served in arrival order, and a
 * waiter whose signal aborts leaves the queue without taking a slot.
 */
export class Semaphore {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new RangeError(`semaphore limit must be a positive integer, got ${limit}`);
  }

  /** Resolves with a release function (safe to call more than once); rejects with signal.reason on abort. */
  async acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) throw signal.reason;
    if (this.running < this.limit) {
      this.running++;
      return this.releaser();
    }
    await new Promise<void>((resolve, reject) => {
      const onAbort = (): void => {
        const index = this.waiting.indexOf(grant);
        if (index >= 0) this.waiting.splice(index, 1);
        reject(signal?.reason);
      };
      const grant = (): void => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      this.waiting.push(grant);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
    // The releasing holder handed its slot straight to us, so `running` is unchanged.
    return this.releaser();
  }

  /** True when nobody holds or waits for a slot. */
  idle(): boolean {
    return this.running === 0 && this.waiting.length === 0;
  }

  inUse(): number {
    return this.running;
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    };
  }
}
