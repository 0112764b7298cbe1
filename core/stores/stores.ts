/**
 * Shared state on keyv: a cache (in memory by default) and a durable record
 * store for jobs, monitors and graphs (SQLite by default; both on Redis when
 * a Redis URL is configured, so several processes share them).
 *
 * Durability on SQLite: every set() is an INSERT … ON CONFLICT on a single
 * sqlite3 connection, sets asked while a commit runs going together in the
 * next one (group-commit-sqlite.ts), and resolves when sqlite3 reports its
 * statement done, i.e. after the commit. We switch
 * the file to WAL (readers do not block the writer) and set synchronous=FULL,
 * under which SQLite fsyncs the WAL on every commit: a resolved set() survives
 * a crash of the process and of the machine. (WAL's usual synchronous=NORMAL
 * would only survive a process crash.)
 *
 * Durability on Redis is whatever the server is configured for (appendonly
 * and appendfsync); a resolved set() means Redis acknowledged the write.
 *
 * Errors: keyv swallows store errors by default (get() returns undefined,
 * set() returns false). Both stores run with throwOnErrors so callers see
 * failures, and every 'error' event is logged.
 *
 * With Redis, `redis` is also an ioredis connection for the shared state that
 * is not key/value records: the rate limit, engine health, locks and the job
 * mechanism's keys (core/stores/redis-client.ts).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import KeyvRedis, { defaultReconnectStrategy } from '@keyv/redis';
import type { Redis } from 'ioredis';
import { Keyv } from 'keyv';
import { BoundedMap } from './bounded-map.js';
import { GroupCommitSqlite } from './group-commit-sqlite.js';
import { openRedis, redactRedisUrl } from './redis-client.js';
import { AppError } from '../errors.js';
import type { Logger } from '../logger.js';

export interface Stores {
  cache: Keyv;
  records: Keyv;
  backend: 'memory+sqlite' | 'redis';
  /** With Redis: a PING on the connection (health checks). */
  pingRedis?(): Promise<void>;
  /** The Redis URL when the state is shared on Redis, else null. */
  redisUrl: string | null;
  /** An ioredis connection to that Redis (shared by rate limit, engine health, locks, jobs), else null. */
  redis: Redis | null;
  close(): Promise<void>;
}

export interface StoresOptions {
  dataDir: string;
  redisUrl?: string | null;
  logger: Logger;
}

export const SQLITE_FILE_NAME = 'quarry.sqlite';
const REDIS_CONNECT_TIMEOUT_MS = 5000;
const SQLITE_BUSY_TIMEOUT_MS = 10_000;
/** Bounds of the in-memory cache (Redis, when configured, applies its own maxmemory policy). */
const MEMORY_CACHE_ENTRIES = 10_000;
const MEMORY_CACHE_BYTES = 256 * 1024 * 1024;

export async function createStores(options: StoresOptions): Promise<Stores> {
  return options.redisUrl
    ? createRedisStores(options.redisUrl, options.logger)
    : createLocalStores(options.dataDir, options.logger);
}

function logErrors(keyv: Keyv, name: string, logger: Logger): Keyv {
  keyv.on('error', (error: unknown) => logger.error({ err: error, store: name }, 'store error'));
  return keyv;
}

async function createLocalStores(dataDir: string, logger: Logger): Promise<Stores> {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const path = join(dataDir, SQLITE_FILE_NAME);
  const sqlite = new GroupCommitSqlite({ uri: `sqlite://${path}`, busyTimeout: SQLITE_BUSY_TIMEOUT_MS });
  try {
    await configureSqlite(sqlite, logger);
  } catch (error) {
    await sqlite.disconnect().catch(() => undefined);
    throw new AppError('UNAVAILABLE', `cannot open the record store at ${path}`, { cause: error });
  }
  const records = logErrors(new Keyv({ store: sqlite, namespace: 'records', throwOnErrors: true }), 'records', logger);
  const cache = logErrors(
    new Keyv({
      store: new BoundedMap<string, unknown>(MEMORY_CACHE_ENTRIES, MEMORY_CACHE_BYTES),
      namespace: 'cache',
      throwOnErrors: true,
    }),
    'cache',
    logger,
  );
  let closed = false;
  return {
    cache,
    records,
    backend: 'memory+sqlite',
    redisUrl: null,
    redis: null,
    async close() {
      if (closed) return;
      closed = true;
      await cache.clear();
      await records.disconnect();
    },
  };
}

/**
 * Runs before any set(): the adapter's single connection takes these
 * per-connection settings. journal_mode=WAL is stored in the file itself;
 * it can fail on file systems without shared memory, so we only warn.
 */
async function configureSqlite(sqlite: GroupCommitSqlite, logger: Logger): Promise<void> {
  const [mode] = (await sqlite.query('PRAGMA journal_mode=WAL')) as Array<{ journal_mode?: string }>;
  if (mode?.journal_mode !== 'wal')
    logger.warn({ journalMode: mode?.journal_mode }, 'SQLite WAL mode unavailable; using the rollback journal');
  await sqlite.query('PRAGMA synchronous=FULL');
}

async function createRedisStores(redisUrl: string, logger: Logger): Promise<Stores> {
  const open = (namespace: string) =>
    new KeyvRedis(
      // While Redis is away, commands fail at once (and surface) instead of queueing until it returns.
      { url: redisUrl, disableOfflineQueue: true, socket: { reconnectStrategy: defaultReconnectStrategy } },
      { namespace, throwOnErrors: true, throwOnConnectError: true, connectionTimeout: REDIS_CONNECT_TIMEOUT_MS },
    );
  const cacheAdapter = open('quarry:cache');
  const recordsAdapter = open('quarry:records');
  // The adapter prefixes keys itself ("quarry:records::key"); keyv must not add another prefix.
  const cache = logErrors(
    new Keyv(cacheAdapter, { namespace: 'quarry:cache', useKeyPrefix: false, throwOnErrors: true }),
    'cache',
    logger,
  );
  const records = logErrors(
    new Keyv(recordsAdapter, { namespace: 'quarry:records', useKeyPrefix: false, throwOnErrors: true }),
    'records',
    logger,
  );
  try {
    // Fail at start-up, not on the first request, when Redis is unreachable.
    await Promise.all([cacheAdapter.getClient(), recordsAdapter.getClient()]);
  } catch (error) {
    await Promise.allSettled([cacheAdapter.disconnect(true), recordsAdapter.disconnect(true)]);
    throw new AppError('UNAVAILABLE', `cannot connect to Redis at ${redactRedisUrl(redisUrl)}`, { cause: error });
  }
  let redis: Redis;
  try {
    redis = await openRedis(redisUrl, 'quarry');
  } catch (error) {
    await Promise.allSettled([cacheAdapter.disconnect(true), recordsAdapter.disconnect(true)]);
    throw error;
  }
  redis.on('error', (error: unknown) => logger.error({ err: error }, 'Redis connection error'));
  let closed = false;
  return {
    cache,
    records,
    backend: 'redis',
    async pingRedis() {
      const client = (await recordsAdapter.getClient()) as unknown as { ping(): Promise<unknown> };
      await client.ping();
    },
    redisUrl,
    redis,
    async close() {
      if (closed) return;
      closed = true;
      const results = await Promise.allSettled([cache.disconnect(), records.disconnect(), redis.quit()]);
      for (const result of results)
        if (result.status === 'rejected') logger.warn({ err: result.reason }, 'closing a Redis connection failed');
    },
  };
}
