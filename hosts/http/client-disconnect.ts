/**
 * A request's cancellation when its client disconnects, made on first use:
 * an AbortSignal costs more to create than a cached search costs to answer
 * in some of its steps, and most answers (cache hits, lookups) never read
 * it. Until the work asks for the signal nothing is created or listened to;
 * a signal asked for after the client left is born aborted.
 */
import type { ServerResponse } from 'node:http';

export class ClientDisconnect {
  private controller: AbortController | undefined;

  constructor(private readonly response: ServerResponse) {}

  /** Whether the client left before the answer was written. */
  get happened(): boolean {
    return this.response.closed && !this.response.writableFinished;
  }

  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.happened) this.abort();
      else this.response.on('close', this.onClose);
    }
    return this.controller.signal;
  }

  /** Stops listening once the answer is sent. */
  release(): void {
    if (this.controller) this.response.off('close', this.onClose);
  }

  private readonly onClose = (): void => {
    if (!this.response.writableFinished) this.abort();
  };

  private abort(): void {
    this.controller!.abort();
  }
}
