/**
 * ioredis connections for the shared state that keyv does not cover: the
 * job queue (BullMQ), the rate-limit store (@fastify/rate-limit), engine
 * health, locks and the job mechanism's own small keys. Both libraries are
 * built on ioredis, so one client library serves them all (keyv keeps its own
 * node-redis connection).
 */
import { Redis, type RedisOptions } from 'ioredis';
import { AppError } from '../errors.js';

const CONNECT_TIMEOUT_MS = 5000;

/** Options for a connection that answers quickly or fails: a request never waits for a reconnect. */
export function commandConnectionOptions(name: string): RedisOptions {
  return {
    connectionName: name,
    connectTimeout: CONNECT_TIMEOUT_MS,
    // While Redis is away, commands fail after one retry instead of queueing for ever.
    maxRetriesPerRequest: 1,
    lazyConnect: true,
  };
}

/** Opens a connection and waits until it is ready; UNAVAILABLE when Redis cannot be reached. */
export async function openRedis(url: string, name: string, options: RedisOptions = {}): Promise<Redis> {
  const redis = new Redis(url, { ...commandConnectionOptions(name), ...options });
  // Without a listener ioredis prints connection errors itself; callers log through their own 'error' handlers.
  redis.on('error', () => undefined);
  try {
    await redis.connect();
  } catch (error) {
    redis.disconnect();
    throw new AppError('UNAVAILABLE', `cannot connect to Redis at ${redactRedisUrl(url)}`, { cause: error });
  }
  return redis;
}

/** Keeps passwords out of error messages and logs. */
export function redactRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparseable URL)';
  }
}
