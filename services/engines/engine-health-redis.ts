/**
 * Engine health on Redis, shared by every instance: per engine a hash
 * (suspension, last error) and a capped list of recent outcomes. A failure
 * is recorded by one Lua script, so concurrent instances never shorten a
 * suspension another one set.
 */
import type { Redis } from 'ioredis';
import { HEALTH_WINDOW, type EngineFailure, type EngineHealthState, type EngineHealthStore } from './engine-health.js';

/**
 * KEYS: state hash, outcomes list. ARGV: "1"|"0", window, last error JSON or "", suspend-until ms or "0", reason, ttl
 * seconds.
 */
const RECORD = `
redis.call('LPUSH', KEYS[2], ARGV[1])
redis.call('LTRIM', KEYS[2], 0, tonumber(ARGV[2]) - 1)
redis.call('EXPIRE', KEYS[2], tonumber(ARGV[6]))
if ARGV[3] ~= '' then redis.call('HSET', KEYS[1], 'lastError', ARGV[3]) end
local until_ms = tonumber(ARGV[4])
if until_ms > 0 and until_ms > tonumber(redis.call('HGET', KEYS[1], 'suspendedUntil') or '0') then
  redis.call('HSET', KEYS[1], 'suspendedUntil', ARGV[4], 'suspendedReason', ARGV[5])
end
redis.call('EXPIRE', KEYS[1], tonumber(ARGV[6]))
return 1
`;

/** Idle engines' state goes after a week (longer than any suspension). */
const TTL_SECONDS = 7 * 24 * 3600;

export class RedisEngineHealthStore implements EngineHealthStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'quarry:engine-health',
  ) {}

  async record(engine: string, failure: EngineFailure | null): Promise<void> {
    const lastError = failure ? JSON.stringify({ code: failure.code, message: failure.message, at: failure.at }) : '';
    await this.redis.eval(
      RECORD,
      2,
      this.stateKey(engine),
      this.outcomesKey(engine),
      failure ? '0' : '1',
      String(HEALTH_WINDOW),
      lastError,
      String(failure?.suspendUntil ?? 0),
      failure ? `${failure.code}: ${failure.message}` : '',
      String(TTL_SECONDS),
    );
  }

  async read(engine: string): Promise<EngineHealthState | null> {
    const [[stateError, hash], [listError, list]] = (await this.redis
      .multi()
      .hgetall(this.stateKey(engine))
      .lrange(this.outcomesKey(engine), 0, -1)
      .exec()) as [[Error | null, Record<string, string>], [Error | null, string[]]];
    if (stateError) throw stateError;
    if (listError) throw listError;
    if (Object.keys(hash).length === 0 && list.length === 0) return null;
    return {
      // LPUSH keeps the newest first.
      outcomes: list.map((entry) => entry === '1').reverse(),
      suspendedUntil: Number(hash.suspendedUntil ?? 0),
      suspendedReason: hash.suspendedReason ?? null,
      lastError: hash.lastError ? (JSON.parse(hash.lastError) as EngineHealthState['lastError']) : null,
    };
  }

  async resume(engine: string): Promise<void> {
    await this.redis.hset(this.stateKey(engine), 'suspendedUntil', '0');
  }

  private stateKey(engine: string): string {
    return `${this.prefix}:${engine}`;
  }

  private outcomesKey(engine: string): string {
    return `${this.prefix}:${engine}:outcomes`;
  }
}
