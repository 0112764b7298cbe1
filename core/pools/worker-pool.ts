/**
 * One small wrapper over tinypool: a bounded queue, typed overload and
 * cancellation errors, and workers loaded as built JavaScript. Callers see
 * only run() and close(), never tinypool's bare error messages.
 */
import { existsSync } from 'node:fs';
import { Tinypool } from 'tinypool';
import { AppError } from '../errors.js';
import { startDeadline } from '../abort.js';

export interface WorkerPoolOptions {
  /** Absolute path of the built worker module (its default export is the task function). */
  filename: string;
  name: string;
  threads: number;
  maxQueue: number;
  /**
   * How long a thread beyond the first may idle before it stops; by default ~24.8 days (setTimeout's longest), i.e.
   * never.
   */
  idleTimeoutMs?: number;
  /** Caps on each thread's heap; a task past them fails with outOfMemoryError's error (else INTERNAL). */
  resourceLimits?: { maxOldGenerationSizeMb?: number; maxYoungGenerationSizeMb?: number };
  outOfMemoryError?: (cause: unknown) => AppError;
}

/**
 * Threads (at most `threads`) are kept once warm: one retired when idle made the next burst parse a 400 kB page in
 * 144–384 ms, not ~15.
 */
const KEEP_THREADS_MS = 2_147_483_647;

export interface WorkerPoolStats {
  name: string;
  threads: number;
  queued: number;
  running: number;
  completed: number;
  maxQueue: number;
}

export class WorkerPool<Task, Result> {
  private readonly pool: Tinypool;
  private running = 0;

  constructor(private readonly options: WorkerPoolOptions) {
    if (!existsSync(options.filename)) {
      throw new AppError(
        'UNAVAILABLE',
        `worker ${options.name} is not built: ${options.filename} is missing (run "npm run build")`,
      );
    }
    this.pool = new Tinypool({
      filename: options.filename,
      minThreads: 1,
      maxThreads: options.threads,
      maxQueue: options.maxQueue,
      idleTimeout: options.idleTimeoutMs ?? KEEP_THREADS_MS,
      ...(options.resourceLimits ? { resourceLimits: options.resourceLimits } : {}),
    });
  }

  /**
   * Runs one task. With `timeoutMs`, a task still queued or running then is
   * stopped — a running one by ending its worker thread, the only way to stop
   * synchronous work — and fails with TIMEOUT; the pool starts a fresh thread.
   * Buffers in `transfer` are moved to the worker, not copied.
   */
  async run(
    task: Task,
    signal?: AbortSignal,
    options: { timeoutMs?: number; transfer?: ArrayBuffer[] } = {},
  ): Promise<Result> {
    if (signal?.aborted) throw new AppError('CANCELLED', `${this.options.name} task cancelled before it started`);
    if (this.pool.queueSize >= this.options.maxQueue) {
      throw new AppError(
        'OVERLOADED',
        `the ${this.options.name} pool is busy (${this.pool.queueSize} tasks queued); try again shortly`,
        {
          retryAfterSeconds: 1,
        },
      );
    }
    const deadline = options.timeoutMs !== undefined ? startDeadline(options.timeoutMs, signal) : undefined;
    const stop = deadline ? deadline.signal : signal;
    this.running++;
    try {
      // Transferred buffers move to the worker without a copy and are empty here afterwards.
      return (await this.pool.run(task, {
        ...(stop ? { signal: stop } : {}),
        ...(options.transfer?.length ? { transferList: options.transfer } : {}),
      })) as Result;
    } catch (error) {
      if (signal?.aborted) throw new AppError('CANCELLED', `${this.options.name} task cancelled`, { cause: error });
      if (deadline?.expired) {
        throw new AppError(
          'TIMEOUT',
          `the ${this.options.name} task did not finish within ${options.timeoutMs} ms and was stopped`,
          {
            details: { timeoutMs: options.timeoutMs },
            cause: error,
          },
        );
      }
      if ((error as { code?: unknown }).code === 'ERR_WORKER_OUT_OF_MEMORY' && this.options.outOfMemoryError) {
        throw this.options.outOfMemoryError(error);
      }
      throw new AppError('INTERNAL', `${this.options.name} worker failed: ${(error as Error).message}`, {
        cause: error,
      });
    } finally {
      this.running--;
      deadline?.dispose();
    }
  }

  stats(): WorkerPoolStats {
    return {
      name: this.options.name,
      threads: this.pool.threads.length,
      queued: this.pool.queueSize,
      running: this.running,
      completed: this.pool.completed,
      maxQueue: this.options.maxQueue,
    };
  }

  async close(): Promise<void> {
    await this.pool.destroy();
  }
}
