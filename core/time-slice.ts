/**
 * Cooperative time slicing for long work on the event loop: call pause()
 * often; once the current slice has run sliceMs, it yields (setImmediate) so
 * timers and other requests run before the work goes on. For work that has
 * to stay on the main thread (it awaits the embedding model, say) but scales
 * with the size of user input.
 */
export class TimeSlicer {
  private sliceStart = performance.now();

  constructor(private readonly sliceMs = 10) {}

  /** Resolves at once within a slice; after sliceMs, on the next turn of the event loop. */
  pause(): Promise<void> | undefined {
    if (performance.now() - this.sliceStart < this.sliceMs) return undefined;
    return new Promise<void>((resolve) =>
      setImmediate(() => {
        this.sliceStart = performance.now();
        resolve();
      }),
    );
  }
}
