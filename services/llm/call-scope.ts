/**
 * One model call's lifetime: the caller's signal and the timeout feed a single
 * AbortSignal handed to the transport, and afterwards tell apart "the caller
 * gave up" (CANCELLED) from "we gave up waiting" (TIMEOUT).
 */
import { AppError } from '../../core/errors.js';

export class CallScope {
  private readonly controller = new AbortController();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private deadline = 0;
  private ended: 'timeout' | 'cancelled' | null = null;
  private readonly onCallerAbort = (): void => this.end('cancelled');

  constructor(
    private readonly callerSignal: AbortSignal | undefined,
    private readonly timeoutMs: number,
  ) {
    if (callerSignal?.aborted) this.end('cancelled');
    else callerSignal?.addEventListener('abort', this.onCallerAbort, { once: true });
    this.restartTimer();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Starts the timeout again (streams: the timeout is per chunk). */
  restartTimer(): void {
    if (this.ended) return;
    clearTimeout(this.timer);
    this.deadline = Date.now() + this.timeoutMs;
    this.timer = setTimeout(() => this.end('timeout'), this.timeoutMs);
  }

  /** Time left before the timeout fires. */
  remainingMs(): number {
    return this.ended ? 0 : Math.max(0, this.deadline - Date.now());
  }

  /** The error explaining why the call stopped early, or null while it still runs. */
  failure(): AppError | null {
    if (this.ended === 'timeout')
      return new AppError('TIMEOUT', `the model did not answer within ${this.timeoutMs} ms`);
    if (this.ended === 'cancelled')
      return new AppError('CANCELLED', 'the model call was cancelled', { cause: this.callerSignal?.reason });
    return null;
  }

  /** Settles with `promise`, or rejects as soon as the call is stopped, whatever the transport does. */
  race<T>(promise: Promise<T>): Promise<T> {
    if (this.ended) {
      promise.catch(() => undefined);
      return Promise.reject(this.failure());
    }
    return new Promise<T>((resolve, reject) => {
      const onAbort = (): void => reject(this.failure());
      this.signal.addEventListener('abort', onAbort, { once: true });
      promise.then(
        (value) => {
          this.signal.removeEventListener('abort', onAbort);
          resolve(value);
        },
        (error: unknown) => {
          this.signal.removeEventListener('abort', onAbort);
          reject(this.failure() ?? error);
        },
      );
    });
  }

  /** Waits, unless the call is stopped first. */
  sleep(ms: number): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    return this.race(new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))).finally(() =>
      clearTimeout(timer),
    );
  }

  /** Ends the call and releases the connection; safe to call more than once. */
  close(): void {
    clearTimeout(this.timer);
    this.callerSignal?.removeEventListener('abort', this.onCallerAbort);
    if (!this.controller.signal.aborted) this.controller.abort();
  }

  private end(reason: 'timeout' | 'cancelled'): void {
    if (this.ended) return;
    this.ended = reason;
    clearTimeout(this.timer);
    this.controller.abort(this.failure());
  }
}
