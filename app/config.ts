/**
 * Quarry's configuration file format: the kernel's settings plus the
 * sections the services declare, layered by core/config.ts (defaults < file
 * < QUARRY_* environment < overrides). Validated once at start; a bad value
 * stops start-up with the field named.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { loadLayeredConfig, type Env, type EnvReader } from '../core/config.js';
import { credibilityConfigSchema } from '../plugins/verify/credibility/config.js';
import { configEngineSchema } from '../services/engines/config-engines.js';
import { enginesConfigSchema } from '../services/engines/engine-config.js';
import { knowledgeConfigSchema } from '../plugins/knowledge/service/config.js';
import { llmConfigSchema, llmEnvOverrides } from '../services/llm/config.js';
import { modelsConfigSchema, modelsEnvOverrides } from '../services/models/config.js';
import { webhookSecretProblem } from '../services/webhooks/standard-webhooks.js';

/** The job lane of monitor checks (its concurrency is monitor.concurrency). */
export const MONITOR_LANE = 'monitors';

export const configSchema = z
  .object({
    /** The address the HTTP server listens on; 0.0.0.0 to accept connections from other machines. */
    host: z.string().min(1).default('127.0.0.1'),
    /** The HTTP server's port (0: any free port). */
    port: z.number().int().min(0).max(65535).default(8080),
    /**
     * Where Quarry keeps its state: SQLite records and jobs, the page index, the generated API key, downloaded models.
     */
    dataDir: z.string().min(1).default(join(homedir(), '.quarry')),
    /** Least severe log level written (to stderr). */
    logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** API keys accepted by the HTTP host; when empty one is generated on first start. */
    apiKeys: z.array(z.string().min(8)).default([]),
    /**
     * Keys for tools that can only be given a URL (no headers): sent as a path segment,
     * /searxng/k/<key>/search, and accepted only there (search only, never as API keys).
     * Redacted from Quarry's logs, but visible to whatever else sees the URL. Empty (default): off.
     */
    urlKeys: z
      .array(
        z
          .string()
          .min(16, 'URL keys must be at least 16 characters')
          .regex(/^[A-Za-z0-9_-]+$/, 'URL keys may hold only letters, digits, _ and -'),
      )
      .default([]),
    /**
     * API keys of operators: accepted like apiKeys, and they see and change every owner's resources (docs/http-api.md
     * "Keys and ownership").
     */
    adminApiKeys: z.array(z.string().min(8)).default([]),
    /** Requests per minute per API key. */
    rateLimitPerMinute: z.number().int().min(1).default(600),
    /**
     * Put the API documentation (/docs, /docs/json, /api/v1/openapi.json) behind the API key; by default it is public,
     * as API docs usually are.
     */
    docsRequireKey: z.boolean().default(false),
    /** Largest accepted request body. */
    bodyLimitBytes: z.number().int().min(1024).default(1_048_576),
    /** Longest wait for a request's headers; a slower client gets 408 and is disconnected. */
    headersTimeoutMs: z.number().int().min(1000).max(300_000).default(10_000),
    /** Longest wait for a whole request, headers and body (not the answer); at least headersTimeoutMs. */
    bodyTimeoutMs: z.number().int().min(1000).max(600_000).default(30_000),
    /**
     * Redis shared by several instances (cache, records, jobs, rate limits, engine health); null keeps all state in
     * this process and the data directory.
     */
    redisUrl: z
      .string()
      .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
      .nullable()
      .default(null),
    http: z
      .object({
        /**
         * The address clients reach this server at (`https://search.example.com`, a path prefix allowed), used in the
         * absolute URLs answers carry (job status URLs, Firecrawl's `next`); null: the request's own scheme and Host.
         */
        publicUrl: z
          .url({ protocol: /^https?$/ })
          .transform((url) => url.replace(/\/+$/, ''))
          .nullable()
          .default(null),
        /**
         * Behind a reverse proxy: trust its X-Forwarded-Proto, X-Forwarded-Host and X-Forwarded-For (off: a client
         * could set them).
         */
        trustProxy: z.boolean().default(false),
      })
      .strict()
      .prefault({}),
    outbound: z
      .object({
        /** User-Agent sent with every outbound request (and matched against robots.txt). */
        userAgent: z
          .string()
          .min(1)
          .default('Mozilla/5.0 (compatible; Quarry/0.1; +https://github.com/quarry-search/quarry)'),
        /** Longest wait for one outbound request. */
        timeoutMs: z.number().int().min(100).max(120_000).default(10_000),
        /** Retries of an outbound request that failed to connect or answered 502, 503 or 504. */
        retries: z.number().int().min(0).max(5).default(1),
        /** Outbound requests in flight at once to one host, per instance. */
        perHostConcurrency: z.number().int().min(1).max(64).default(4),
        /** Largest outbound response read; a larger one is refused. */
        maxResponseBytes: z
          .number()
          .int()
          .min(1024)
          .default(10 * 1024 * 1024),
        /** Redirects followed per outbound request (each hop checked like the first). */
        maxRedirects: z.number().int().min(0).max(20).default(5),
        /** HTTP(S) proxy for every outbound request; null: direct. */
        proxy: z
          .string()
          .regex(/^https?:\/\//)
          .nullable()
          .default(null),
        /** Obey robots.txt before every page fetch and render. */
        respectRobots: z.boolean().default(true),
        /** Allow outbound requests to private, loopback and link-local addresses (off: only the public internet). */
        allowPrivateNetwork: z.boolean().default(false),
        /** Hosts (host or host:port) that may be reached at private addresses while allowPrivateNetwork is off. */
        allowHosts: z.array(z.string().min(1)).default([]),
      })
      .strict()
      .prefault({}),
    /** Per-engine switches over the manifests (services/engines/engine-config.ts). */
    engines: enginesConfigSchema,
    /** Engines declared entirely in configuration (JSON API or HTML page); see docs/engines.md. */
    customEngines: z.array(configEngineSchema).default([]),
    /** Folders of third-party engines (each holding plugin.json + built engine.js, or a folder of such folders). */
    engineDirs: z.array(z.string().min(1)).default([]),
    /** npm packages of third-party engines, resolved from the working directory. */
    enginePackages: z.array(z.string().min(1)).default([]),
    search: z
      .object({
        /** Engines used when a request names none (three general web engines that need no key). */
        defaultEngines: z.array(z.string()).min(1).default(['duckduckgo', 'bing', 'wikipedia']),
        /** The single engine used by batch search and other one-engine defaults. */
        defaultSingleEngine: z.string().default('duckduckgo'),
        /** Result pages read at once by one search with scrape_content. */
        maxScrapeConcurrency: z.number().int().min(1).max(32).default(6),
      })
      .strict()
      .prefault({}),
    mcp: z
      .object({
        /** Tools to expose over MCP; null exposes all. */
        tools: z.array(z.string()).nullable().default(null),
        /** Browser origins (scheme://host[:port]) allowed to call /mcp besides the server's own; "*" allows any. */
        allowedOrigins: z.array(z.string()).default([]),
      })
      .strict()
      .prefault({}),
    browser: z
      .object({
        /** The Chromium (or Chrome) binary for rendering; null finds an installed one. */
        executablePath: z.string().nullable().default(null),
        /** Browser pages rendering at once per instance. */
        maxConcurrentPages: z.number().int().min(1).max(16).default(2),
        /** Pages a browser renders before it is restarted (bounds its memory). */
        recycleAfterPages: z.number().int().min(1).default(100),
        /**
         * Whether a read's page actions may include executeJavascript (a caller's script run in the page); off unless
         * enabled (docs/page-actions.md).
         */
        allowExecuteJavascript: z.boolean().default(false),
      })
      .strict()
      .prefault({}),
    pools: z
      .object({
        /** Worker threads of the extraction pool (page extraction and every other parse of untrusted input). */
        extractThreads: z.number().int().min(1).max(32).default(2),
        /**
         * Heap (old generation, MB) of each extraction thread; a page that needs more is refused with
         * RESPONSE_TOO_LARGE. 256 parses a 10 MB page (the largest outbound read by default).
         */
        extractHeapMb: z.number().int().min(64).max(16_384).default(256),
        /** Parsing tasks waiting for a thread at most; past it a task is refused. */
        maxQueue: z.number().int().min(1).default(256),
        /**
         * Longest one parsing task (page extraction, tables, chunking, links) may run; it is then stopped and answers
         * TIMEOUT.
         */
        taskTimeoutMs: z.number().int().min(100).max(600_000).default(30_000),
      })
      .strict()
      .prefault({}),
    /** Language models per tier; absent means every LLM-backed feature answers extractively. */
    llm: llmConfigSchema,
    embeddings: z
      .object({
        /**
         * The sentence-embedding model: a Hugging Face hub id (e.g. "Xenova/all-MiniLM-L6-v2") or a local
         * folder holding an ONNX model. Null uses the embedded offline model built at install time.
         */
        model: z.string().min(1).nullable().default(null),
        /** Download models the cache does not hold (needs internet, or a mirror in remoteHost). */
        allowRemote: z.boolean().default(true),
        /** The hub to download from (a mirror, or the tests' sandbox web). */
        remoteHost: z.url({ protocol: /^https?$/ }).default('https://huggingface.co/'),
        /** Where downloaded models are cached; default <dataDir>/models. */
        cacheDir: z.string().min(1).nullable().default(null),
        /** Worker processes running the embedding model. */
        threads: z.number().int().min(1).max(32).default(1),
        /** Texts embedded per model call. */
        batchSize: z.number().int().min(1).max(1024).default(64),
        /** Texts waiting to be embedded at most; past it a request is refused. */
        maxQueue: z.number().int().min(1).default(256),
      })
      .strict()
      .prefault({}),
    /** Optional task models: entity tagging, verify's stance, passage reranking (services/models/config.ts). */
    models: modelsConfigSchema,
    vectorIndex: z
      .object({
        /** Keep the page index: pages Quarry reads are embedded and indexed for semantic search. */
        enabled: z.boolean().default(true),
        /**
         * The LanceDB directory; default <dataDir>/page-index. Several instances may share one (docs/vector-index.md).
         */
        dir: z.string().min(1).nullable().default(null),
        /** Chunks of pages fetched longer ago than this are purged (0 keeps everything). */
        retentionDays: z.number().int().min(0).default(30),
        /** Upper bound on indexed chunks; the oldest pages go first beyond it (0: no bound). */
        maxChunks: z.number().int().min(0).default(1_000_000),
        /**
         * The longest a page read waits before the page index writes it: pages are written in batches (64 at most),
         * a page waiting is kept in <dataDir>/page-index-journal until then, and indexed from there after a crash.
         */
        batchWaitMs: z.number().int().min(1).max(600_000).default(1_000),
      })
      .strict()
      .prefault({}),
    /** Source credibility ratings (plugins/verify/credibility/config.ts; docs/verify.md). */
    credibility: credibilityConfigSchema,
    /** The knowledge graph (plugins/knowledge/service/config.ts). */
    knowledge: knowledgeConfigSchema,
    jobs: z
      .object({
        /** Jobs run at once per instance (webhook deliveries have their own bound, webhooks.concurrency). */
        concurrency: z.number().int().min(1).max(64).default(4),
        /** Finished jobs (and their webhook delivery logs) stay readable this long. */
        keepFinishedHours: z
          .number()
          .min(0.01)
          .max(24 * 365)
          .default(168),
        /** Runs of one job cut short by crashes or shutdowns before it fails for good. */
        maxInterruptions: z.number().int().min(0).max(100).default(3),
        /** With Redis (BullMQ): how long a running job's lock lasts without renewal (renewed every half of it). */
        lockMs: z.number().int().min(1000).max(600_000).default(20_000),
        /**
         * With Redis (BullMQ): how often each instance looks for jobs whose lock expired. Failover ≤ lockMs + 2 ×
         * stalledIntervalMs (50 s).
         */
        stalledIntervalMs: z.number().int().min(1000).max(600_000).default(15_000),
      })
      .strict()
      .prefault({}),
    webhooks: z
      .object({
        /**
         * Standard Webhooks signing secret, "whsec_<base64>"; generated once and kept (data directory, or Redis) when
         * absent.
         */
        secret: z
          .string()
          .nullable()
          .default(null)
          .superRefine((value, ctx) => {
            const problem = value === null ? null : webhookSecretProblem(value);
            if (problem) ctx.addIssue({ code: 'custom', message: problem });
          }),
        /** Attempts per message in all, the first included. */
        maxAttempts: z.number().int().min(1).max(50).default(12),
        /** Longest wait for the receiver's answer to one delivery attempt. */
        timeoutMs: z.number().int().min(100).max(120_000).default(10_000),
        /** Backoff between attempts: grows from backoffBaseMs, doubling, up to backoffMaxMs, with jitter. */
        backoffBaseMs: z.number().int().min(10).default(2000),
        /** The longest backoff between attempts. */
        backoffMaxMs: z
          .number()
          .int()
          .min(10)
          .default(30 * 60_000),
        /** Deliveries in flight at once per instance. */
        concurrency: z.number().int().min(1).max(256).default(8),
      })
      .strict()
      .prefault({}),
    monitor: z
      .object({
        /** Checks run at once per instance (their own job lane, so a slow check never holds up other work). */
        concurrency: z.number().int().min(1).max(256).default(8),
        /** Bound of one check (search, reading pages, analysis); a check that runs out commits what it has. */
        checkTimeoutSeconds: z.number().int().min(5).max(600).default(90),
        /** Results asked of the engines per check. */
        resultsPerCheck: z.number().int().min(1).max(100).default(10),
        /** Newest results kept per monitor (GET …/results reads at most 100). */
        keepResults: z.number().int().min(1).max(10_000).default(100),
        /** Normalised URLs remembered per monitor (alerted on, or recorded in its baseline); the oldest go first. */
        seenUrls: z.number().int().min(100).max(100_000).default(2000),
        /** New pages read per check with deep_analysis. */
        deepAnalysisPages: z.number().int().min(1).max(20).default(5),
        /**
         * How often each instance makes sure every active monitor has its next check queued (the scheduler's safety
         * net).
         */
        sweepIntervalSeconds: z.number().int().min(1).max(3600).default(60),
        /**
         * Spread of the first check of monitors created together, and of later ones: up to this share of the interval
         * (at most 60 s).
         */
        jitterShare: z.number().min(0).max(0.5).default(0.1),
        /**
         * "per-monitor": each monitor signs with its own secret, returned once at creation; "global": every alert is
         * signed with webhooks.secret.
         */
        webhookSecret: z.enum(['per-monitor', 'global']).default('per-monitor'),
        /**
         * FOR TESTS AND BENCHMARKS ONLY: the length in milliseconds of one "minute" of
         * check_interval_minutes, so an interval of 5 can last 5 s. Leave at 60000.
         */
        testOnlyMinuteMs: z.number().int().min(10).max(60_000).default(60_000),
      })
      .strict()
      .prefault({}),
    /**
     * Per-principal caps on durable resources (an API key, or a key group as one): a create past
     * one is refused with QUOTA_EXCEEDED naming the limit (docs/http-api.md "Keys and ownership").
     */
    quotas: z
      .object({
        /** Monitors one principal may have, active or paused. */
        monitors: z.number().int().min(0).max(1_000_000).default(100),
        /** Scheduled checks per hour over one principal's active monitors (60 / check_interval_minutes each). */
        monitorChecksPerHour: z.number().int().min(0).max(10_000_000).default(600),
        /** RAG corpora one principal may have. */
        corpora: z.number().int().min(0).max(1_000_000).default(50),
        /** Entities in one principal's knowledge graph. */
        graphEntities: z.number().int().min(0).max(100_000_000).default(100_000),
        /** Firecrawl crawls and batch scrapes one principal may have queued or running at once. */
        firecrawlJobs: z.number().int().min(0).max(100_000).default(20),
      })
      .strict()
      .prefault({}),
    /**
     * On SIGTERM: how long running requests and jobs get to finish before jobs are handed back and the process exits.
     */
    shutdownGraceMs: z.number().int().min(0).max(600_000).default(20_000),
    /**
     * On SIGTERM, before it stops listening: how long the instance keeps serving while /healthz answers
     * 503, so a load balancer's health checks take it out first. Default 2 s with Redis (several instances), else 0.
     */
    shutdownDrainMs: z.number().int().min(0).max(600_000).nullable().default(null),
  })
  .strict()
  .refine((config) => config.bodyTimeoutMs >= config.headersTimeoutMs, {
    message: 'must be at least headersTimeoutMs',
    path: ['bodyTimeoutMs'],
  });

export type QuarryConfig = z.infer<typeof configSchema>;
export type ConfigInput = z.input<typeof configSchema>;

/**
 * Environment variables for the common settings, applied over the file (unset ones are dropped by the loader).
 * Exported for the configuration reference (scripts/config-docs.ts), which reads which variable sets which setting from
 * it.
 */
export function fromEnv(env: EnvReader, raw: Env): Record<string, unknown> {
  return {
    host: env.str('QUARRY_HOST'),
    port: env.num('QUARRY_PORT'),
    dataDir: env.str('QUARRY_DATA_DIR'),
    logLevel: env.str('QUARRY_LOG_LEVEL'),
    apiKeys: env.list('QUARRY_API_KEYS'),
    urlKeys: env.list('QUARRY_URL_KEYS'),
    adminApiKeys: env.list('QUARRY_ADMIN_KEYS'),
    rateLimitPerMinute: env.num('QUARRY_RATE_LIMIT_PER_MINUTE'),
    docsRequireKey: env.bool('QUARRY_DOCS_REQUIRE_KEY'),
    redisUrl: env.str('QUARRY_REDIS_URL') ?? env.str('REDIS_URL'),
    http: { publicUrl: env.str('QUARRY_PUBLIC_URL'), trustProxy: env.bool('QUARRY_TRUST_PROXY') },
    outbound: {
      allowPrivateNetwork: env.bool('QUARRY_ALLOW_PRIVATE_NETWORK'),
      allowHosts: env.list('QUARRY_ALLOW_HOSTS'),
      respectRobots: env.bool('QUARRY_RESPECT_ROBOTS'),
      userAgent: env.str('QUARRY_USER_AGENT'),
      proxy: env.str('QUARRY_PROXY') ?? env.str('HTTPS_PROXY') ?? env.str('https_proxy'),
    },
    browser: {
      executablePath: env.str('QUARRY_CHROMIUM_PATH'),
      allowExecuteJavascript: env.bool('QUARRY_ALLOW_EXECUTE_JAVASCRIPT'),
    },
    mcp: { tools: env.list('QUARRY_MCP_TOOLS'), allowedOrigins: env.list('QUARRY_MCP_ALLOWED_ORIGINS') },
    webhooks: { secret: env.str('QUARRY_WEBHOOK_SECRET') },
    shutdownGraceMs: env.num('QUARRY_SHUTDOWN_GRACE_MS'),
    shutdownDrainMs: env.num('QUARRY_SHUTDOWN_DRAIN_MS'),
    llm: llmEnvOverrides(raw),
    embeddings: {
      model: env.str('QUARRY_EMBEDDING_MODEL'),
      allowRemote: env.bool('QUARRY_EMBEDDING_ALLOW_REMOTE'),
      remoteHost: env.str('QUARRY_EMBEDDING_REMOTE_HOST'),
      threads: env.num('QUARRY_EMBEDDING_THREADS'),
    },
    models: modelsEnvOverrides(env),
    vectorIndex: { retentionDays: env.num('QUARRY_INDEX_RETENTION_DAYS'), dir: env.str('QUARRY_INDEX_DIR') },
    knowledge: { feedFromPages: env.bool('QUARRY_KNOWLEDGE_FEED_FROM_PAGES') },
  };
}

export interface LoadedConfig {
  config: QuarryConfig;
  /** The config file read, if any. */
  source: string | null;
}

/** Loads and validates configuration; `overrides` (tests, CLI flags) win over everything. */
export function loadConfig(options: { env?: Env; cwd?: string; overrides?: ConfigInput } = {}): LoadedConfig {
  return loadLayeredConfig({ schema: configSchema, fromEnv, ...options });
}

export { mergeLayers } from '../core/config.js';
