/**
 * Tracks each engine's recent outcomes and suspensions. An engine that
 * answers with a CAPTCHA, a 429 or an access denial is suspended for the
 * time its typed error carries (SearXNG's defaults: 180 s after a 429,
 * an hour after a CAPTCHA), and skipped until then.
 */

const WINDOW = 50;

export interface EngineHealthView {
  suspendedUntil: string | null;
  suspendedReason: string | null;
  /** Share of failures among the last requests (0..1), null before any request. */
  recentErrorRate: number | null;
  recentRequests: number;
  lastError: { code: string; message: string; at: string } | null;
}

interface EngineState {
  outcomes: boolean[];
  suspendedUntil: number;
  suspendedReason: string | null;
  lastError: { code: string; message: string; at: string } | null;
}

export class EngineHealth {
  private readonly states = new Map<string, EngineState>();

  constructor(private readonly now: () => number = Date.now) {}

  private state(engine: string): EngineState {
    let state = this.states.get(engine);
    if (!state) {
      state = { outcomes: [], suspendedUntil: 0, suspendedReason: null, lastError: null };
      this.states.set(engine, state);
    }
    return state;
  }

  recordSuccess(engine: string): void {
    this.push(engine, true);
  }

  recordFailure(engine: string, code: string, message: string, suspendSeconds = 0): void {
    const state = this.push(engine, false);
    state.lastError = { code, message, at: new Date(this.now()).toISOString() };
    if (suspendSeconds > 0) {
      state.suspendedUntil = Math.max(state.suspendedUntil, this.now() + suspendSeconds * 1000);
      state.suspendedReason = `${code}: ${message}`;
    }
  }

  /** Milliseconds left in the engine's suspension, 0 when it may be used. */
  suspendedFor(engine: string): number {
    const state = this.states.get(engine);
    if (!state) return 0;
    return Math.max(0, state.suspendedUntil - this.now());
  }

  suspensionReason(engine: string): string | null {
    return this.suspendedFor(engine) > 0 ? (this.states.get(engine)?.suspendedReason ?? null) : null;
  }

  /** Lifts a suspension (admin action, tests). */
  resume(engine: string): void {
    const state = this.states.get(engine);
    if (state) state.suspendedUntil = 0;
  }

  view(engine: string): EngineHealthView {
    const state = this.states.get(engine);
    if (!state) return { suspendedUntil: null, suspendedReason: null, recentErrorRate: null, recentRequests: 0, lastError: null };
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

  private push(engine: string, ok: boolean): EngineState {
    const state = this.state(engine);
    state.outcomes.push(ok);
    if (state.outcomes.length > WINDOW) state.outcomes.shift();
    return state;
  }
}
