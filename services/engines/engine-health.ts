/**
 * Tracks each engine's recent outcomes and suspensions. An engine that
 * answers with a CAPTCHA, a 429 or an access denial is suspended for the
 * time its typed error carries (SearXNG's defaults: 180 s after a 429,
 * an hour after a CAPTCHA), and skipped until then.
 *
 * The state lives in a store: this process's memory by default, Redis when
 * several instances share one (engine-health-redis.ts), so an engine
 * suspended by one instance is suspended on all. Health is advisory: when
 * the store cannot be reached, the failure is logged and engines are used.
 */
import type { Logger } from '../../core/logger.js';

/** Outcomes kept per engine for the recent error rate. */
export const HEALTH_WINDOW = 50;

export interface EngineHealthView {
  suspendedUntil: string | null;
  suspendedReason: string | null;
  /** Share of failures among the last requests (0..1), null before any request. */
  recentErrorRate: number | null;
  recentRequests: number;
  lastError: { code: string; message: string; at: string } | null;
}

export interface EngineHealthState {
  /** Oldest first, at most HEALTH_WINDOW. */
  outcomes: boolean[];
  /** Epoch ms; 0 when not suspended. */
  suspendedUntil: number;
  suspendedReason: string | null;
  lastError: { code: string; message: string; at: string } | null;
}

export interface EngineFailure {
  code: string;
  message: string;
  at: string;
  /** Epoch ms until which the engine is suspended (a later suspension already in place stands). */
  suspendUntil?: number;
}

export interface EngineHealthStore {
  record(engine: string, failure: EngineFailure | null): Promise<void>;
  read(engine: string): Promise<EngineHealthState | null>;
  resume(engine: string): Promise<void>;
}

export class MemoryEngineHealthStore implements EngineHealthStore {
  private readonly states = new Map<string, EngineHealthState>();

  async record(engine: string, failure: EngineFailure | null): Promise<void> {
    let state = this.states.get(engine);
    if (!state) {
      state = { outcomes: [], suspendedUntil: 0, suspendedReason: null, lastError: null };
      this.states.set(engine, state);
    }
    state.outcomes.push(failure === null);
    if (state.outcomes.length > HEALTH_WINDOW) state.outcomes.shift();
    if (!failure) return;
    state.lastError = { code: failure.code, message: failure.message, at: failure.at };
    if (failure.suspendUntil !== undefined && failure.suspendUntil > state.suspendedUntil) {
      state.suspendedUntil = failure.suspendUntil;
      state.suspendedReason = `${failure.code}: ${failure.message}`;
    }
  }

  async read(engine: string): Promise<EngineHealthState | null> {
    const state = this.states.get(engine);
    return state ? { ...state, outcomes: [...state.outcomes] } : null;
  }

  async resume(engine: string): Promise<void> {
    const state = this.states.get(engine);
    if (state) state.suspendedUntil = 0;
  }
}

export class EngineHealth {
  constructor(
    private readonly store: EngineHealthStore = new MemoryEngineHealthStore(),
    private readonly logger: Logger | null = null,
    private readonly now: () => number = Date.now,
  ) {}

  recordSuccess(engine: string): Promise<void> {
    return this.record(engine, null);
  }

  recordFailure(engine: string, code: string, message: string, suspendSeconds = 0): Promise<void> {
    const failure: EngineFailure = { code, message, at: new Date(this.now()).toISOString() };
    if (suspendSeconds > 0) failure.suspendUntil = this.now() + suspendSeconds * 1000;
    return this.record(engine, failure);
  }

  /** Milliseconds left in the engine's suspension (0 when it may be used), and why. */
  async suspension(engine: string): Promise<{ remainingMs: number; reason: string | null }> {
    const state = await this.read(engine);
    const remainingMs = state ? Math.max(0, state.suspendedUntil - this.now()) : 0;
    return { remainingMs, reason: remainingMs > 0 ? (state?.suspendedReason ?? null) : null };
  }

  /** Lifts a suspension (admin action, tests). */
  async resume(engine: string): Promise<void> {
    await this.store.resume(engine);
  }

  async view(engine: string): Promise<EngineHealthView> {
    const state = await this.read(engine);
    if (!state)
      return { suspendedUntil: null, suspendedReason: null, recentErrorRate: null, recentRequests: 0, lastError: null };
    const suspended = state.suspendedUntil > this.now();
    const failures = state.outcomes.filter((ok) => !ok).length;
    return {
      suspendedUntil: suspended ? new Date(state.suspendedUntil).toISOString() : null,
      suspendedReason: suspended ? state.suspendedReason : null,
      recentErrorRate: state.outcomes.length > 0 ? failures / state.outcomes.length : null,
      recentRequests: state.outcomes.length,
      lastError: state.lastError,
    };
  }

  private async record(engine: string, failure: EngineFailure | null): Promise<void> {
    try {
      await this.store.record(engine, failure);
    } catch (error) {
      this.logger?.warn({ err: error, engine }, 'engine health: recording an outcome failed');
    }
  }

  private async read(engine: string): Promise<EngineHealthState | null> {
    try {
      return await this.store.read(engine);
    } catch (error) {
      this.logger?.warn({ err: error, engine }, 'engine health: reading the state failed; using the engine');
      return null;
    }
  }
}
