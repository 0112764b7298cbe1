/**
 * Health from real checks: each named check does a small piece of real work
 * (a store round trip, a browser ping, a one-token model call) under a time
 * limit. Results are kept for a while per check, so an unauthenticated
 * health endpoint cannot make the service work harder than once per
 * interval, and callers arriving together share one run.
 */

export type CheckStatus = 'healthy' | 'unhealthy';

export interface HealthCheck {
  name: string;
  /** Resolves with an optional detail when healthy; throws (or times out) when not. */
  run(signal: AbortSignal): Promise<string | void>;
  /** How long a result is reused; default 10 s. */
  cacheMs?: number;
  /** Time limit of one run; default 3 s. */
  timeoutMs?: number;
}

export interface CheckResult {
  status: CheckStatus;
  response_time_ms: number;
  detail?: string;
  checked_at: string;
}

export interface HealthReport {
  status: 'healthy' | 'degraded';
  services: Record<string, CheckResult>;
}

interface Entry {
  result: Promise<CheckResult>;
  expiresAt: number;
}

const DEFAULT_CACHE_MS = 10_000;
const DEFAULT_TIMEOUT_MS = 3000;

export class HealthMonitor {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly checks: HealthCheck[],
    private readonly now: () => number = Date.now,
  ) {}

  names(): string[] {
    return this.checks.map((c) => c.name);
  }

  async report(): Promise<HealthReport> {
    const results = await Promise.all(
      this.checks.map(async (check) => [check.name, await this.result(check)] as const),
    );
    const services = Object.fromEntries(results);
    const healthy = results.every(([, r]) => r.status === 'healthy');
    return { status: healthy ? 'healthy' : 'degraded', services };
  }

  private result(check: HealthCheck): Promise<CheckResult> {
    const cached = this.entries.get(check.name);
    if (cached && cached.expiresAt > this.now()) return cached.result;
    const result = runCheck(check);
    this.entries.set(check.name, { result, expiresAt: this.now() + (check.cacheMs ?? DEFAULT_CACHE_MS) });
    return result;
  }
}

async function runCheck(check: HealthCheck): Promise<CheckResult> {
  const timeoutMs = check.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const controller = new AbortController();
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      // Settle first: a check that ends on abort must not count as an answer in time.
      reject(new Error(`no answer within ${timeoutMs} ms`));
      controller.abort();
    }, timeoutMs);
  });
  const checkedAt = new Date().toISOString();
  try {
    const detail = await Promise.race([check.run(controller.signal), timedOut]);
    const result: CheckResult = {
      status: 'healthy',
      response_time_ms: Math.round(performance.now() - started),
      checked_at: checkedAt,
    };
    if (typeof detail === 'string' && detail) result.detail = detail;
    return result;
  } catch (error) {
    return {
      status: 'unhealthy',
      response_time_ms: Math.round(performance.now() - started),
      detail: error instanceof Error ? error.message : String(error),
      checked_at: checkedAt,
    };
  } finally {
    clearTimeout(timer);
  }
}
