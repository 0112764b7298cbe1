/**
 * Runs engines: the only place that does engine I/O. It resolves settings
 * (config over manifest), skips disabled and suspended engines, drives
 * multi-step requests, maps HTTP failures to typed engine errors and
 * suspends engines that are blocked.
 */
import {
  EngineAccessDeniedError,
  EngineError,
  EngineRateLimitedError,
  type EngineContext,
  type EngineManifest,
  type EngineQuery,
  type EngineResult,
  type EngineSettings,
  type EngineStep,
  type HttpRequestSpec,
  type LoadedEngine,
} from '../../core/engine.js';
import { AppError, toAppError } from '../../core/errors.js';
import type { OutboundRequest, OutboundResponse } from '../../core/http/types.js';
import type { Logger } from '../../core/logger.js';
import type { EngineHealth, EngineHealthView } from './engine-health.js';
import type { EngineOverrides } from './engine-config.js';
import {
  engineParseResult,
  parseWith,
  workerModuleRef,
  type EngineParseOutcome,
  type EngineParseTask,
  type EngineParseValue,
} from './engine-parse-task.js';

const MAX_STEPS = 4;
const DEFAULT_ENGINE_TIMEOUT_MS = 8000;
/**
 * Engine answers are untrusted and parsed in the worker pool (sent as bytes,
 * decoded there), except a JSON engine's answer up to this size, decoded and
 * parsed here: it costs under 2 ms on the event loop, less than the thread
 * round trip (bench/engine-parse.bench.ts: 64 KB of Wikipedia JSON 1.5 ms
 * inline, 14 ms through the pool at load 17), while a 53 KB Google page takes
 * 39 ms to parse.
 */
export const INLINE_JSON_MAX_BYTES = 64 * 1024;

/** An engine's answer as fetched: the outbound response (decoded only when read) and the request it answers. */
interface FetchedAnswer {
  response: OutboundResponse;
  request: HttpRequestSpec;
}

export type { LoadedEngine } from '../../core/engine.js';

export interface EngineFetcher {
  fetch(request: OutboundRequest): Promise<OutboundResponse>;
}

export interface EngineCatalogueEntry {
  name: string;
  enabled: boolean;
  categories: string[];
  supported_languages: string[];
  safe_search_support: boolean;
  time_range_support: boolean;
  paging_support: boolean;
  /** Extensions beyond the spec's engine entry. */
  display_name: string;
  weight: number;
  disabled_reason: string | null;
  requires_api_key: boolean;
  autocomplete_support: boolean;
  max_page: number;
  result_kind: string;
  about: EngineManifest['about'];
  source: LoadedEngine['source'];
}

export interface EngineRuntimeEntry extends EngineCatalogueEntry {
  suspended_until: string | null;
  suspended_reason: string | null;
  recent_error_rate: number | null;
  recent_requests: number;
  last_error: EngineHealthView['lastError'];
}

export interface EngineCallOptions {
  signal?: AbortSignal;
  /** Upper bound for this engine call (all steps). */
  timeoutMs?: number;
}

/**
 * Where engine answers are parsed off the event loop (the extraction worker pool); it may move the answer's bytes
 * there.
 */
export interface EngineAnswerParsing {
  engine(task: EngineParseTask, signal?: AbortSignal): Promise<EngineParseOutcome>;
}

export type EngineCallObserver = (engine: string, outcome: string, durationMs: number) => void;

export class EngineService {
  private readonly engines = new Map<string, LoadedEngine>();
  /** Former id → current id (manifest `aliases`). */
  private readonly aliases = new Map<string, string>();
  private readonly observers: EngineCallObserver[] = [];

  constructor(
    engines: LoadedEngine[],
    private readonly config: { engines: Record<string, EngineOverrides> },
    private readonly fetcher: EngineFetcher,
    private readonly parsing: EngineAnswerParsing,
    private readonly health: EngineHealth,
    private readonly logger: Logger,
  ) {
    for (const engine of engines) {
      if (this.engines.has(engine.manifest.id))
        throw new Error(`engine "${engine.manifest.id}" is loaded twice (${engine.dir})`);
      this.engines.set(engine.manifest.id, engine);
    }
    for (const engine of engines) {
      for (const alias of engine.manifest.aliases ?? []) {
        if (this.engines.has(alias) || this.aliases.has(alias))
          throw new Error(`engine alias "${alias}" of "${engine.manifest.id}" is already an engine id or alias`);
        this.aliases.set(alias, engine.manifest.id);
      }
    }
  }

  onCall(observer: EngineCallObserver): void {
    this.observers.push(observer);
  }

  ids(): string[] {
    return [...this.engines.keys()].sort();
  }

  /** Whether the id (or a former id) names an engine. */
  has(id: string): boolean {
    return this.engines.has(id) || this.aliases.has(id);
  }

  /** The current id of an engine named by its id or a former id (unknown ids come back unchanged). */
  canonicalId(id: string): string {
    return this.aliases.get(id) ?? id;
  }

  get(id: string): LoadedEngine {
    const engine = this.engines.get(this.canonicalId(id));
    if (!engine) throw new AppError('UNKNOWN_ENGINE', `unknown engine "${id}"`);
    return engine;
  }

  /** Configuration of an engine: engines.<id>, over engines.<former id>. */
  private overrides(id: string): EngineOverrides | undefined {
    const current = this.canonicalId(id);
    const former = (this.get(current).manifest.aliases ?? [])
      .map((alias) => this.config.engines[alias])
      .filter((o) => o !== undefined);
    const own = this.config.engines[current];
    if (former.length === 0) return own;
    return Object.assign({}, ...former, own) as EngineOverrides;
  }

  settings(id: string): EngineSettings {
    const engine = this.get(id);
    const overrides = this.overrides(id) ?? {};
    const settings: EngineSettings = {
      baseUrl: (overrides.baseUrl ?? engine.manifest.baseUrl).replace(/\/+$/, ''),
      options: overrides.options ?? {},
    };
    if (overrides.apiKey) settings.apiKey = overrides.apiKey;
    return settings;
  }

  /** Per-request timeout of an engine: config, then manifest, then the default. */
  timeoutMs(id: string): number {
    return this.overrides(id)?.timeoutMs ?? this.get(id).manifest.timeoutMs ?? DEFAULT_ENGINE_TIMEOUT_MS;
  }

  weight(id: string): number {
    return this.overrides(id)?.weight ?? this.get(id).manifest.weight;
  }

  /** Why an engine cannot be used at all (configuration), or null. */
  disabledReason(id: string): string | null {
    const engine = this.get(id);
    const overrides = this.overrides(id);
    if (overrides?.enabled === false) return 'disabled in configuration';
    if (engine.manifest.about.requiresApiKey && !overrides?.apiKey)
      return `needs an API key: set engines.${engine.manifest.id}.apiKey in the configuration`;
    return null;
  }

  /** Why an engine cannot be used right now (configuration or suspension), or null. */
  async unavailableReason(
    requested: string,
  ): Promise<{ code: 'ENGINE_DISABLED' | 'ENGINE_SUSPENDED'; message: string } | null> {
    const id = this.canonicalId(requested);
    const disabled = this.disabledReason(id);
    if (disabled) return { code: 'ENGINE_DISABLED', message: disabled };
    const suspension = await this.health.suspension(id);
    if (suspension.remainingMs > 0) {
      return {
        code: 'ENGINE_SUSPENDED',
        message: `suspended for another ${Math.ceil(suspension.remainingMs / 1000)} s after ${suspension.reason ?? 'a failure'}`,
      };
    }
    return null;
  }

  catalogueEntry(requested: string): EngineCatalogueEntry {
    const id = this.canonicalId(requested);
    const { manifest, source } = this.get(id);
    const disabledReason = this.disabledReason(id);
    return {
      name: id,
      enabled: disabledReason === null,
      categories: manifest.categories,
      supported_languages: manifest.languages,
      safe_search_support: manifest.supports.safeSearch,
      time_range_support: manifest.supports.timeRange,
      paging_support: manifest.supports.paging,
      display_name: manifest.name,
      weight: this.weight(id),
      disabled_reason: disabledReason,
      requires_api_key: manifest.about.requiresApiKey,
      autocomplete_support: manifest.supports.autocomplete,
      max_page: manifest.supports.maxPage,
      result_kind: manifest.about.resultKind,
      about: manifest.about,
      source,
    };
  }

  async runtimeEntry(requested: string): Promise<EngineRuntimeEntry> {
    const id = this.canonicalId(requested);
    const view = await this.health.view(id);
    return {
      ...this.catalogueEntry(id),
      suspended_until: view.suspendedUntil,
      suspended_reason: view.suspendedReason,
      recent_error_rate: view.recentErrorRate,
      recent_requests: view.recentRequests,
      last_error: view.lastError,
    };
  }

  /** Queries one engine for one page. Throws typed AppErrors; records health. */
  async search(requested: string, query: EngineQuery, options: EngineCallOptions = {}): Promise<EngineResult[]> {
    const id = this.canonicalId(requested);
    const engine = this.get(id);
    const unavailable = await this.unavailableReason(id);
    if (unavailable) throw new AppError(unavailable.code, unavailable.message);
    const ctx: EngineContext = { query, settings: this.settings(id), manifest: engine.manifest };
    const started = performance.now();
    try {
      let request = engine.definition.buildRequest(ctx);
      for (let step = 1; ; step++) {
        const answer = await this.send(id, request, options);
        this.raiseForStatus(answer.response);
        const outcome = (await this.parse(engine, 'results', answer, ctx, options.signal)) as EngineStep;
        if ('results' in outcome) {
          await this.health.recordSuccess(id);
          this.notify(id, 'ok', started);
          return outcome.results;
        }
        if (step >= MAX_STEPS)
          throw new AppError('ENGINE_PARSE_ERROR', `engine "${id}" asked for more than ${MAX_STEPS} requests`);
        request = outcome.next;
      }
    } catch (error) {
      const appError = this.asEngineFailure(id, error);
      if (appError.code !== 'CANCELLED') {
        const suspend =
          error instanceof EngineError ? ((error as EngineError & { suspendSeconds?: number }).suspendSeconds ?? 0) : 0;
        await this.health.recordFailure(id, appError.code, appError.message, suspend);
        this.logger.warn(
          { engine: id, code: appError.code, suspendSeconds: suspend || undefined },
          `engine failed: ${appError.message}`,
        );
      }
      this.notify(id, appError.code, started);
      throw appError;
    }
  }

  /** Autocomplete suggestions from one engine that offers them. */
  async autocomplete(
    requested: string,
    text: string,
    language: string,
    options: EngineCallOptions = {},
  ): Promise<string[]> {
    const id = this.canonicalId(requested);
    const engine = this.get(id);
    const auto = engine.definition.autocomplete;
    if (!auto) throw new AppError('INVALID_INPUT', `engine "${id}" has no autocomplete`);
    const unavailable = await this.unavailableReason(id);
    if (unavailable) throw new AppError(unavailable.code, unavailable.message);
    const request = auto.buildRequest(text, { settings: this.settings(id), manifest: engine.manifest, language });
    const answer = await this.send(id, request, options);
    this.raiseForStatus(answer.response);
    return (await this.parse(engine, 'autocomplete', answer, undefined, options.signal)) as string[];
  }

  /**
   * The engine's parser over its answer: in the worker pool, or here for a small JSON answer (INLINE_JSON_MAX_BYTES).
   */
  private async parse(
    engine: LoadedEngine,
    phase: EngineParseTask['phase'],
    answer: FetchedAnswer,
    ctx: EngineContext | undefined,
    signal: AbortSignal | undefined,
  ): Promise<EngineParseValue> {
    const { status, headers, url, bytes } = answer.response;
    if (engine.manifest.about.results === 'JSON' && bytes.byteLength <= INLINE_JSON_MAX_BYTES) {
      return parseWith(engine.definition, {
        phase,
        ctx,
        response: { status, headers, url, request: answer.request, body: answer.response.body },
      });
    }
    const response = { status, headers, url, request: answer.request, bytes };
    const outcome = await this.parsing.engine(
      { kind: 'engine', engine: workerModuleRef(engine.moduleRef), phase, response, ...(ctx ? { ctx } : {}) },
      signal,
    );
    return engineParseResult(outcome);
  }

  private async send(id: string, request: HttpRequestSpec, options: EngineCallOptions): Promise<FetchedAnswer> {
    const timeoutMs = options.timeoutMs ?? this.timeoutMs(id);
    const outbound: OutboundRequest = {
      url: request.url,
      method: request.method,
      purpose: 'engine',
      timeoutMs,
      retries: 0,
    };
    if (request.headers) outbound.headers = request.headers;
    if (request.body !== undefined) outbound.body = request.body;
    if (options.signal) outbound.signal = options.signal;
    return { response: await this.fetcher.fetch(outbound), request };
  }

  private raiseForStatus(response: Pick<OutboundResponse, 'status'>): void {
    if (response.status === 429) throw new EngineRateLimitedError();
    if (response.status === 401 || response.status === 402 || response.status === 403) {
      throw new EngineAccessDeniedError(`the engine answered HTTP ${response.status}`);
    }
    if (response.status >= 400) throw new AppError('UPSTREAM_FAILED', `the engine answered HTTP ${response.status}`);
  }

  private asEngineFailure(id: string, error: unknown): AppError {
    const appError = toAppError(error);
    if (appError.code === 'INTERNAL') {
      // A parser that crashes is a parse error of that engine, not a server fault.
      return new AppError('ENGINE_PARSE_ERROR', `engine "${id}" could not parse the response: ${appError.message}`, {
        cause: error,
      });
    }
    return appError;
  }

  private notify(id: string, outcome: string, started: number): void {
    const durationMs = performance.now() - started;
    for (const observer of this.observers) observer(id, outcome, durationMs);
  }
}
