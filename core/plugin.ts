/**
 * The area plugin contract, as the kernel sees it. An area plugin's entry
 * module default-exports an AreaPlugin; setup receives the services the
 * composition root hands it as plain arguments (no container import, no
 * decorators) and returns the capabilities it contributes, which must match
 * its manifest's list. What those services are is the composition root's
 * business (app/plugin-services.ts).
 */
import type { AnyCapability } from './capability.js';
import type { AppError } from './errors.js';
import type { Principal } from './principal.js';

export interface AreaPlugin<Services, Own = undefined> {
  /** The services it uses, by name: its manifest's "uses" (the composition root checks both lists agree). */
  readonly uses: readonly string[];
  /** Builds once, before setup, what this area alone owns (its stores, its services); handed to the other hooks. */
  open?(services: Services): Own | Promise<Own>;
  setup(services: Services, own: Own): AnyCapability[] | Promise<AnyCapability[]>;
  /**
   * Its job kinds (async modes, research, batches, scheduled checks): a handler, or one with its retry bound and lane;
   * registered before any job runs.
   */
  jobHandlers?(services: Services, own: Own): Record<string, JobHandler | JobKind>;
  /**
   * Starts its background work (a scheduler) once jobs run, after every setup; what it returns is stopped on close,
   * before the jobs.
   */
  start?(services: Services, own: Own): Promise<BackgroundWork | void> | BackgroundWork | void;
  /** Releases what open built, after the job mechanism has closed. */
  close?(own: Own): Promise<void>;
}

export interface BackgroundWork {
  stop(): Promise<void>;
}

export interface JobHandlerContext {
  /** The job's id: the same on every run of the job, so a key for idempotent effects. */
  id: string;
  /** 1 on the first run; each retry after a failure counts up (a run cut short by a crash does not). */
  attempt: number;
  /** Aborted when the job is cancelled or the instance shuts down. */
  signal: AbortSignal;
  progress(p: { progress: number; total?: number; message?: string }): void;
  /** Who submitted the job: what it creates is theirs (absent for jobs of no one, such as scheduled checks). */
  owner?: Principal;
}

export type JobHandler = (input: unknown, ctx: JobHandlerContext) => Promise<unknown>;

export interface JobKind {
  run: JobHandler;
  /** Runs in all when the handler fails with a retryable error; default 1 (no retry). */
  maxAttempts?: number;
  /**
   * Delay before the next run after `error` ended run `attempt`, or null when
   * the error is final. Default: exponential backoff with jitter for errors
   * another try may cure (timeouts, upstream failures, overload).
   */
  retryDelayMs?(error: AppError, attempt: number): number | null;
  /**
   * Jobs of one lane share a concurrency bound; a separate lane keeps slow work from starving other work. Default
   * "default".
   */
  lane?: string;
}
