/** Waiting that stops when a signal aborts: the one place the kernel and the services get it from. */

/** Waits ms milliseconds; rejects with the signal's reason as soon as it aborts. */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Settles like promise, or rejects with signal.reason as soon as the signal
 * aborts. The awaited operation keeps running; only the waiting stops (its
 * late rejection is swallowed so it is never reported as unhandled).
 */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) {
    promise.catch(() => undefined);
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** A signal for one call: it aborts when `ms` pass or `parent` aborts, and dispose() lets it go. */
export interface Deadline {
  readonly signal: AbortSignal;
  /** Whether the time ran out (rather than the parent aborting). */
  readonly expired: boolean;
  /** Stops the timer and leaves the parent: call it when the call ends, however it ends. */
  dispose(): void;
}

/**
 * Like AbortSignal.any([parent, AbortSignal.timeout(ms)]), but released when
 * the call ends: a timeout signal and everything its listeners hold (the
 * request, its pool task) stay reachable until the timer fires, seconds after
 * the call, and a busy server then promoted them all to the old generation.
 */
export function startDeadline(ms: number, parent?: AbortSignal): Deadline {
  const controller = new AbortController();
  let expired = false;
  const onParentAbort = (): void => {
    clearTimeout(timer);
    controller.abort(parent!.reason);
  };
  const timer = setTimeout(() => {
    expired = true;
    parent?.removeEventListener('abort', onParentAbort);
    controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
  }, Math.max(1, Math.ceil(ms)));
  // Like AbortSignal.timeout's, the timer alone does not keep the process running.
  timer.unref();
  if (parent?.aborted) onParentAbort();
  else parent?.addEventListener('abort', onParentAbort, { once: true });
  return {
    signal: controller.signal,
    get expired() {
      return expired;
    },
    dispose() {
      clearTimeout(timer);
      parent?.removeEventListener('abort', onParentAbort);
    },
  };
}
