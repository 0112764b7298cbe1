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

/** A signal for one call: the caller's, or a timeout; dispose() lets it go when the call ends. */
export interface Deadline {
  readonly signal: AbortSignal;
  /** Whether the time ran out (rather than the parent aborting). */
  readonly expired: boolean;
  dispose(): void;
}

/**
 * Like AbortSignal.any([parent, AbortSignal.timeout(ms)]), but let go when the call ends: a timeout
 * signal kept what its listeners held (the request, its pool task) until it fired, and AbortSignal.any
 * kept a dependant in a long-lived parent per call on Node 20 (nodejs/node#54614).
 */
export function startDeadline(ms: number, parent?: AbortSignal): Deadline {
  const controller = new AbortController();
  let expired = false;
  let unfollow: (() => void) | undefined;
  const timer = setTimeout(
    () => {
      expired = true;
      unfollow?.();
      controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
    },
    Math.max(1, Math.ceil(ms)),
  );
  // Like AbortSignal.timeout's, the timer alone does not keep the process running.
  timer.unref();
  const onParentAbort = (): void => {
    clearTimeout(timer);
    controller.abort(parent!.reason);
  };
  if (parent?.aborted) onParentAbort();
  else if (parent) unfollow = follow(parent, onParentAbort);
  return {
    signal: controller.signal,
    get expired() {
      return expired;
    },
    dispose() {
      clearTimeout(timer);
      unfollow?.();
    },
  };
}

/**
 * Per parent signal, the calls under it and its one listener: not one each (past the limit of ten for a search's
 * scrapes).
 */
const followers = new WeakMap<AbortSignal, { calls: Set<() => void>; listener: () => void }>();

function follow(parent: AbortSignal, onAbort: () => void): () => void {
  let entry = followers.get(parent);
  if (!entry) {
    const calls = new Set<() => void>();
    const listener = (): void => {
      followers.delete(parent);
      for (const call of [...calls]) call();
    };
    entry = { calls, listener };
    followers.set(parent, entry);
    parent.addEventListener('abort', entry.listener, { once: true });
  }
  const { calls, listener } = entry;
  calls.add(onAbort);
  return () => {
    if (!calls.delete(onAbort) || calls.size > 0) return;
    // The last call under the parent has ended: it keeps no listener of ours.
    if (followers.get(parent)?.calls === calls) followers.delete(parent);
    parent.removeEventListener('abort', listener);
  };
}
