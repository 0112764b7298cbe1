/**
 * A FIFO of texts (or other items) waiting for a model. Calls are cut into batches of at
 * most batchSize texts, and small calls that wait together share a batch, so
 * one worker round trip serves many callers. At most `concurrency` batches are
 * in flight; the queue is bounded and refuses work with OVERLOADED.
 */
import { AppError } from '../../core/errors.js';

interface Request<Item, Out> {
  texts: Item[];
  results: Out[];
  /** Next text not yet handed to a batch. */
  next: number;
  /** Texts whose vectors have not come back yet. */
  remaining: number;
  settled: boolean;
  resolve: (outputs: Out[]) => void;
  reject: (error: unknown) => void;
  detach: () => void;
}

interface Part<Item, Out> {
  request: Request<Item, Out>;
  start: number;
  end: number;
}

export interface BatchQueueOptions {
  batchSize: number;
  /** Texts that may wait; a call that would go beyond it is refused (unless nothing waits). */
  maxQueuedTexts: number;
  concurrency: number;
  /** What the queue feeds, for its messages (default "embedding"). */
  label?: string;
}

export class BatchQueue<Item = string, Out = Float32Array> {
  private readonly waiting: Request<Item, Out>[] = [];
  private queuedTexts = 0;
  private inFlight = 0;
  private pumpScheduled = false;
  private get label(): string {
    return this.options.label ?? 'embedding';
  }

  constructor(
    private readonly runBatch: (texts: Item[]) => Promise<Out[]>,
    private readonly options: BatchQueueOptions,
  ) {}

  submit(texts: Item[], signal?: AbortSignal): Promise<Out[]> {
    if (texts.length === 0) return Promise.resolve([]);
    if (signal?.aborted) return Promise.reject(new AppError('CANCELLED', `${this.label} cancelled before it started`));
    // An oversized call is still accepted into an empty queue, so big jobs work on an idle server.
    if (this.queuedTexts > 0 && this.queuedTexts + texts.length > this.options.maxQueuedTexts) {
      return Promise.reject(
        new AppError(
          'OVERLOADED',
          `the ${this.label} queue is full (${this.queuedTexts} texts waiting); try again shortly`,
          { retryAfterSeconds: 1 },
        ),
      );
    }
    return new Promise((resolve, reject) => {
      const request: Request<Item, Out> = {
        texts,
        results: new Array(texts.length),
        next: 0,
        remaining: texts.length,
        settled: false,
        resolve,
        reject,
        detach: () => {},
      };
      if (signal) {
        const onAbort = (): void => this.cancel(request);
        signal.addEventListener('abort', onAbort, { once: true });
        request.detach = () => signal.removeEventListener('abort', onAbort);
      }
      this.waiting.push(request);
      this.queuedTexts += texts.length;
      this.schedulePump();
    });
  }

  /** Rejects everything still waiting (used by close()). */
  rejectAll(error: AppError): void {
    for (const request of [...this.waiting]) this.settle(request, error);
  }

  private cancel(request: Request<Item, Out>): void {
    this.settle(request, new AppError('CANCELLED', `${this.label} cancelled`));
  }

  private settle(request: Request<Item, Out>, error: unknown): void {
    if (request.settled) return;
    request.settled = true;
    request.detach();
    const index = this.waiting.indexOf(request);
    if (index >= 0) {
      this.waiting.splice(index, 1);
      this.queuedTexts -= request.texts.length - request.next;
    }
    request.reject(error);
  }

  // Deferred to a microtask so calls made in the same tick (Promise.all over many small calls) coalesce.
  private schedulePump(): void {
    if (this.pumpScheduled) return;
    this.pumpScheduled = true;
    queueMicrotask(() => {
      this.pumpScheduled = false;
      this.pump();
    });
  }

  private pump(): void {
    while (this.inFlight < this.options.concurrency && this.waiting.length > 0) this.dispatch(this.takeBatch());
  }

  private takeBatch(): Part<Item, Out>[] {
    const parts: Part<Item, Out>[] = [];
    let room = this.options.batchSize;
    while (room > 0 && this.waiting.length > 0) {
      const request = this.waiting[0]!;
      const end = Math.min(request.texts.length, request.next + room);
      parts.push({ request, start: request.next, end });
      room -= end - request.next;
      this.queuedTexts -= end - request.next;
      request.next = end;
      if (end === request.texts.length) this.waiting.shift();
    }
    return parts;
  }

  private dispatch(parts: Part<Item, Out>[]): void {
    this.inFlight++;
    const texts = parts.flatMap((part) => part.request.texts.slice(part.start, part.end));
    this.runBatch(texts)
      .then((vectors) => {
        let offset = 0;
        for (const { request, start, end } of parts) {
          for (let i = start; i < end; i++) request.results[i] = vectors[offset++]!;
          request.remaining -= end - start;
          if (request.remaining === 0 && !request.settled) {
            request.settled = true;
            request.detach();
            request.resolve(request.results);
          }
        }
      })
      .catch((error: unknown) => {
        for (const { request } of parts) this.settle(request, error);
      })
      .finally(() => {
        this.inFlight--;
        this.pump();
      });
  }
}
