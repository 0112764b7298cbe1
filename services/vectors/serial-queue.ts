/**
 * Runs async tasks one at a time, in submission order. Every write to the
 * table goes through one of these: LanceDB commits are optimistic, and two
 * in-process writers racing on the same version would retry or, for
 * replace-a-page, interleave one writer's delete with another's insert.
 */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task);
    // A failed task must not stall the ones behind it; its caller still sees the rejection.
    this.tail = result.catch(() => undefined);
    return result;
  }

  /** Resolves once the queue is empty, including tasks queued by tasks that were running. */
  async idle(): Promise<void> {
    let seen: Promise<unknown>;
    do {
      seen = this.tail;
      await seen;
    } while (seen !== this.tail);
  }
}
