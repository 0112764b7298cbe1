/**
 * The embed worker's pool: tinypool with child processes instead of worker
 * threads. onnxruntime-node 1.21 (under transformers.js 3.8.1) keeps the
 * Tensor constructor of the first JS isolate that used it in a process-global
 * static, so a second worker thread — or a new one after the first exited —
 * aborts the whole process ("HandleScope ... without proper locking";
 * microsoft/onnxruntime#24486). One process per worker avoids that, which
 * core/pools/worker-pool.ts (worker threads only) cannot do today.
 * Queueing, OVERLOADED and CANCELLED are BatchQueue's job; this only runs tasks,
 * each under a time limit: a task past it is abandoned and its process killed
 * (tinypool terminates the worker of an aborted task), so a wedged model never
 * holds a caller or a batch slot for good.
 */
import { existsSync } from 'node:fs';
import { Tinypool } from 'tinypool';
import { AppError } from '../../core/errors.js';

export class ProcessPool<Task, Result> {
  private readonly pool: Tinypool;

  constructor(private readonly options: { filename: string; name: string; processes: number }) {
    if (!existsSync(options.filename)) {
      throw new AppError(
        'UNAVAILABLE',
        `worker ${options.name} is not built: ${options.filename} is missing (run "npm run build")`,
      );
    }
    this.pool = new Tinypool({
      filename: options.filename,
      runtime: 'child_process',
      // Typed arrays must survive the IPC channel (JSON would turn them into objects).
      serialization: 'advanced',
      // The parent's flags (test runners' loaders) mean nothing to the built worker.
      execArgv: [],
      minThreads: 1,
      maxThreads: options.processes,
      // A recycled process reloads the model, so idle ones are kept a while.
      idleTimeout: 10 * 60_000,
    });
  }

  async run(task: Task, limits: { timeoutMs: number }): Promise<Result> {
    const signal = AbortSignal.timeout(limits.timeoutMs);
    try {
      return (await this.pool.run(task, { signal })) as Result;
    } catch (error) {
      if (signal.aborted) {
        throw new AppError(
          'TIMEOUT',
          `${this.options.name} worker did not answer within ${limits.timeoutMs} ms; its process was stopped`,
          { cause: error },
        );
      }
      throw new AppError('INTERNAL', `${this.options.name} worker failed: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }

  /** Stops the processes; gives up waiting after closeTimeoutMs (a wedged child is killed by tinypool's terminate). */
  async close(closeTimeoutMs = 5000): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const giveUp = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, closeTimeoutMs);
    });
    await Promise.race([this.pool.destroy().catch(() => undefined), giveUp]);
    clearTimeout(timer);
  }
}
