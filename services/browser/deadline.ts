/**
 * Bounds for awaiting things that may never answer: a browser (a CDP call to a
 * hung Chromium waits forever), a socket or a child process. The awaited
 * operation keeps running; only the waiting stops.
 */

/** promise's outcome, or fallback once ms have passed or signal has aborted, whichever is first. */
export function within<T, F>(promise: Promise<T>, ms: number, fallback: F, signal?: AbortSignal): Promise<T | F> {
  if (signal?.aborted) {
    promise.catch(() => undefined);
    return Promise.resolve(fallback);
  }
  return new Promise<T | F>((resolve, reject) => {
    const stop = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', giveUp);
    };
    const giveUp = (): void => {
      stop();
      resolve(fallback);
    };
    const timer = setTimeout(giveUp, ms);
    signal?.addEventListener('abort', giveUp, { once: true });
    promise.then(
      (value) => {
        stop();
        resolve(value);
      },
      (error: unknown) => {
        stop();
        reject(error);
      },
    );
  });
}

/** True once promise has settled (either way) within ms and before signal aborts; never rejects. */
export function settlesWithin(promise: Promise<unknown>, ms: number, signal?: AbortSignal): Promise<boolean> {
  const settled = promise.then(
    () => true,
    () => true,
  );
  return within(settled, ms, false, signal);
}
