/**
 * Metrics on prom-client, one registry per instance (no global state, so
 * tests can create many): calls and latency percentiles per capability,
 * cache hit rate, engine outcomes, and gauges for pools and the browser.
 * Served as Prometheus text at /metrics and as JSON by the performance
 * endpoint. Percentiles come from summaries over a sliding 10-minute window
 * (windowed-summary.ts: cheap to observe on every call); counts are added up
 * in plain numbers and handed to prom-client when read (batched-counter.ts).
 */
import { roundTo } from '../../core/rounding.js';
import { Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import { AppError } from '../../core/errors.js';
import { BatchedCounter } from './batched-counter.js';
import { WindowedSummary } from './windowed-summary.js';

export type CallHost = 'http' | 'mcp' | 'cli' | 'job';
/** 'ok' or an error code. */
export type Outcome = string;

export interface GaugeSample {
  labels: Record<string, string>;
  value: number;
}

export type GaugeReader = () => number | GaugeSample[];

export interface CapabilityFigures {
  calls: number;
  errors: number;
  p50_ms: number | null;
  p95_ms: number | null;
  p99_ms: number | null;
}

export interface CacheFigures {
  hits: number;
  misses: number;
  hit_rate: number | null;
}

export interface EngineFigures {
  requests: number;
  failures: number;
  error_rate: number | null;
  p50_ms: number | null;
}

export interface PerformanceSnapshot {
  capabilities: Record<string, CapabilityFigures>;
  cache: Record<string, CacheFigures>;
  engines: Record<string, EngineFigures>;
  gauges: Record<string, number | GaugeSample[]>;
}

/** Ten minutes, left two minutes at a time. */
const WINDOW = { windowMs: 600_000, slots: 5 } as const;
const PERCENTILES = [0.5, 0.95, 0.99];

export class Metrics {
  readonly registry = new Registry();
  private readonly gaugeReaders = new Map<string, GaugeReader>();

  private readonly calls = new BatchedCounter(
    {
      name: 'quarry_capability_calls_total',
      help: 'Capability calls by capability, host and outcome (ok or error code)',
      registers: [this.registry],
    },
    ['capability', 'host', 'status'],
  );
  private readonly callLatency = new WindowedSummary({
    name: 'quarry_capability_duration_ms',
    help: 'Capability latency in milliseconds over the last 10 minutes',
    labelName: 'capability',
    percentiles: PERCENTILES,
    ...WINDOW,
    registers: [this.registry],
  });
  private readonly cacheLookups = new BatchedCounter(
    {
      name: 'quarry_cache_lookups_total',
      help: 'Cache lookups by area and result (hit or miss)',
      registers: [this.registry],
    },
    ['area', 'result'],
  );
  private readonly engineRequests = new BatchedCounter(
    {
      name: 'quarry_engine_requests_total',
      help: 'Search engine requests by engine and outcome (ok or error code)',
      registers: [this.registry],
    },
    ['engine', 'outcome'],
  );
  private readonly engineLatency = new WindowedSummary({
    name: 'quarry_engine_duration_ms',
    help: 'Search engine latency in milliseconds over the last 10 minutes',
    labelName: 'engine',
    percentiles: PERCENTILES,
    ...WINDOW,
    registers: [this.registry],
  });

  constructor(options: { defaultMetrics?: boolean } = {}) {
    if (options.defaultMetrics ?? true) collectDefaultMetrics({ register: this.registry, prefix: 'quarry_' });
  }

  observeCall(capabilityId: string, host: CallHost | string, status: Outcome, durationMs: number): void {
    this.calls.inc(capabilityId, host, status);
    this.callLatency.observe(capabilityId, durationMs);
  }

  cacheLookup(area: string, hit: boolean): void {
    this.cacheLookups.inc(area, hit ? 'hit' : 'miss');
  }

  engineRequest(engine: string, outcome: Outcome, durationMs: number): void {
    this.engineRequests.inc(engine, outcome);
    this.engineLatency.observe(engine, durationMs);
  }

  /**
   * A gauge read when metrics are collected. A reader returning samples
   * must only use the label names declared here.
   */
  registerGauge(name: string, help: string, collect: GaugeReader, labelNames: string[] = []): void {
    if (this.gaugeReaders.has(name) || this.registry.getSingleMetric(name)) {
      throw new AppError('INTERNAL', `metric ${name} is already registered`);
    }
    this.gaugeReaders.set(name, collect);
    new Gauge({
      name,
      help,
      labelNames,
      registers: [this.registry],
      collect() {
        const value = collect();
        if (typeof value === 'number') {
          this.set(value);
          return;
        }
        this.reset();
        for (const sample of value) this.set(sample.labels, sample.value);
      },
    });
  }

  /** Prometheus text exposition format. */
  prometheus(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  async snapshot(): Promise<PerformanceSnapshot> {
    const snapshot: PerformanceSnapshot = { capabilities: {}, cache: {}, engines: {}, gauges: {} };

    for (const { labels, value } of await this.calls.values()) {
      const entry = (snapshot.capabilities[String(labels.capability)] ??= {
        calls: 0,
        errors: 0,
        p50_ms: null,
        p95_ms: null,
        p99_ms: null,
      });
      entry.calls += value;
      if (labels.status !== 'ok') entry.errors += value;
    }
    for (const { labels, value } of this.callLatency.get().values) {
      const entry = snapshot.capabilities[String(labels.capability)];
      const key = percentileKey((labels as { quantile?: number }).quantile);
      if (entry && key) entry[key] = roundMs(value);
    }

    for (const { labels, value } of await this.cacheLookups.values()) {
      const entry = (snapshot.cache[String(labels.area)] ??= { hits: 0, misses: 0, hit_rate: null });
      if (labels.result === 'hit') entry.hits += value;
      else entry.misses += value;
    }
    for (const entry of Object.values(snapshot.cache)) entry.hit_rate = ratio(entry.hits, entry.hits + entry.misses);

    for (const { labels, value } of await this.engineRequests.values()) {
      const entry = (snapshot.engines[String(labels.engine)] ??= {
        requests: 0,
        failures: 0,
        error_rate: null,
        p50_ms: null,
      });
      entry.requests += value;
      if (labels.outcome !== 'ok') entry.failures += value;
    }
    for (const entry of Object.values(snapshot.engines)) entry.error_rate = ratio(entry.failures, entry.requests);
    for (const { labels, value } of this.engineLatency.get().values) {
      const entry = snapshot.engines[String(labels.engine)];
      if (entry && (labels as { quantile?: number }).quantile === 0.5) entry.p50_ms = roundMs(value);
    }

    for (const [name, read] of this.gaugeReaders) snapshot.gauges[name] = read();
    return snapshot;
  }
}

function percentileKey(quantile: number | undefined): 'p50_ms' | 'p95_ms' | 'p99_ms' | null {
  if (quantile === 0.5) return 'p50_ms';
  if (quantile === 0.95) return 'p95_ms';
  if (quantile === 0.99) return 'p99_ms';
  return null;
}

/** NaN (no observation in the window) becomes null. */
function roundMs(value: number): number | null {
  return Number.isFinite(value) ? roundTo(value, 1) : null;
}

function ratio(part: number, whole: number): number | null {
  return whole > 0 ? roundTo(part / whole, 4) : null;
}
