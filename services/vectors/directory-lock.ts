/**
 * A write lock shared by every process that opens one LanceDB directory.
 *
 * Lance commits are optimistic: two processes that merge-insert the same new
 * key at once both commit, and the table holds the key twice (lance-format/
 * lance#4585, lancedb/lancedb#2463 — open upstream; the advice there is to
 * serialise writers in the application). Several Quarry instances share the
 * page index directory, so their writes take this lock, held across processes
 * through proper-lockfile (a lock directory whose mtime is kept fresh; a
 * holder that dies leaves it stale and the next writer takes it over).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { lock } from 'proper-lockfile';
import type { Logger } from '../../core/logger.js';
import { AppError } from '../../core/errors.js';

export interface DirectoryLockOptions {
  /** A holder silent (no mtime refresh) this long is taken for dead. */
  staleMs?: number;
  /** How long a writer waits for the lock before giving up with UNAVAILABLE. */
  waitMs?: number;
  logger: Logger;
}

export type DirectoryLock = <T>(task: () => Promise<T>) => Promise<T>;

/** Runs each task while holding the lock of dir (created when missing). */
export function directoryLock(dir: string, options: DirectoryLockOptions): DirectoryLock {
  const staleMs = options.staleMs ?? 10_000;
  const waitMs = options.waitMs ?? 120_000;
  const target = join(dir, 'write');
  mkdirSync(dir, { recursive: true });
  return async (task) => {
    const started = Date.now();
    let release: (() => Promise<void>) | undefined;
    let compromised: Error | undefined;
    for (;;) {
      try {
        release = await lock(target, {
          realpath: false,
          stale: staleMs,
          retries: { retries: 20, minTimeout: 5, maxTimeout: 200, factor: 1.5 },
          // The default throws from a timer, which would crash the process.
          onCompromised: (error) => {
            compromised = error;
            options.logger.warn(
              { err: error, dir },
              'page index: the write lock was lost (another process took it over as stale)',
            );
          },
        });
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
        if (Date.now() - started > waitMs)
          throw new AppError(
            'UNAVAILABLE',
            `the page index at ${dir} stayed locked by another process for ${Math.round(waitMs / 1000)} s`,
          );
      }
    }
    try {
      return await task();
    } finally {
      if (!compromised)
        await release().catch((error: unknown) =>
          options.logger.warn({ err: error, dir }, 'page index: could not release the write lock'),
        );
    }
  };
}
