/**
 * Configuration: defaults < config file (quarry.config.json in the working
 * directory, or QUARRY_CONFIG) < QUARRY_* environment variables. Validated
 * once at start; a bad value stops start-up with the field named.
 */
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { configEngineSchema } from '../services/engines/config-engines.js';
import { AppError } from './errors.js';
import { llmConfigSchema, llmEnvOverrides } from '../services/llm/config.js';

const engineConfigSchema = z
  .object({
    enabled: z.boolean().optional(),
    baseUrl: z.url({ protocol: /^https?$/ }).optional(),
    apiKey: z.string().min(1).optional(),
    weight: z.number().positive().max(10).optional(),
    timeoutMs: z.number().int().min(100).max(60_000).optional(),
    options: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();

export const configSchema = z
  .object({
    host: z.string().min(1).default('127.0.0.1'),
    port: z.number().int().min(0).max(65535).default(8080),
    dataDir: z.string().min(1).default(join(homedir(), '.quarry')),
    logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** API keys accepted by the HTTP host; when empty one is generated on first start. */
    apiKeys: z.array(z.string().min(8)).default([]),
    /** Requests per minute per API key. */
    rateLimitPerMinute: z.number().int().min(1).default(600),
    /** Largest accepted request body. */
    bodyLimitBytes: z.number().int().min(1024).default(1_048_576),
    redisUrl: z.string().regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL').nullable().default(null),
    outbound: z
      .object({
        userAgent: z.string().min(1).default('Mozilla/5.0 (compatible; Quarry/0.1; +https://github.com/quarry-search/quarry)'),
        timeoutMs: z.number().int().min(100).max(120_000).default(10_000),
        retries: z.number().int().min(0).max(5).default(1),
        perHostConcurrency: z.number().int().min(1).max(64).default(4),
        maxResponseBytes: z.number().int().min(1024).default(10 * 1024 * 1024),
        maxRedirects: z.number().int().min(0).max(20).default(5),
        proxy: z.string().regex(/^https?:\/\//).nullable().default(null),
        respectRobots: z.boolean().default(true),
        allowPrivateNetwork: z.boolean().default(false),
        allowHosts: z.array(z.string().min(1)).default([]),
      })
      .strict()
      .prefault({}),
    engines: z.record(z.string().regex(/^[a-z][a-z0-9_]*$/, 'engine ids match ^[a-z][a-z0-9_]*$'), engineConfigSchema).default({}),
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
        maxScrapeConcurrency: z.number().int().min(1).max(32).default(6),
      })
      .strict()
      .prefault({}),
    mcp: z
      .object({
        /** Tools to expose over MCP; null exposes all. */
        tools: z.array(z.string()).nullable().default(null),
      })
      .strict()
      .prefault({}),
    browser: z
      .object({
        executablePath: z.string().nullable().default(null),
        maxConcurrentPages: z.number().int().min(1).max(16).default(2),
        recycleAfterPages: z.number().int().min(1).default(100),
      })
      .strict()
      .prefault({}),
    pools: z
      .object({
        extractThreads: z.number().int().min(1).max(32).default(2),
        maxQueue: z.number().int().min(1).default(256),
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
        threads: z.number().int().min(1).max(32).default(1),
        batchSize: z.number().int().min(1).max(1024).default(64),
        maxQueue: z.number().int().min(1).default(256),
      })
      .strict()
      .prefault({}),
    vectorIndex: z
      .object({
        enabled: z.boolean().default(true),
        /** Chunks of pages fetched longer ago than this are purged (0 keeps everything). */
        retentionDays: z.number().int().min(0).default(30),
        /** Upper bound on indexed chunks; the oldest pages go first beyond it (0: no bound). */
        maxChunks: z.number().int().min(0).default(1_000_000),
      })
      .strict()
      .prefault({}),
    jobs: z
      .object({
        concurrency: z.number().int().min(1).max(64).default(4),
        /** Secret used to sign webhook deliveries; generated and stored in the data directory when absent. */
        webhookSecret: z.string().min(16).nullable().default(null),
      })
      .strict()
      .prefault({}),
  })
  .strict();

export type QuarryConfig = z.infer<typeof configSchema>;
export type ConfigInput = z.input<typeof configSchema>;

type Env = Record<string, string | undefined>;

/** Environment variables for the common settings, applied over the file. */
function envOverrides(env: Env): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const outbound: Record<string, unknown> = {};
  const num = (name: string): number | undefined => {
    const raw = env[name];
    if (raw === undefined || raw === '') return undefined;
    const value = Number(raw);
    if (!Number.isFinite(value)) throw new AppError('INVALID_INPUT', `${name} must be a number, got "${raw}"`);
    return value;
  };
  const bool = (name: string): boolean | undefined => {
    const raw = env[name]?.toLowerCase();
    if (raw === undefined || raw === '') return undefined;
    if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
    if (['0', 'false', 'no', 'off'].includes(raw)) return false;
    throw new AppError('INVALID_INPUT', `${name} must be true or false, got "${env[name]}"`);
  };
  const list = (name: string): string[] | undefined =>
    env[name] === undefined || env[name] === '' ? undefined : env[name]!.split(',').map((s) => s.trim()).filter(Boolean);

  if (env.QUARRY_HOST) out.host = env.QUARRY_HOST;
  if (num('QUARRY_PORT') !== undefined) out.port = num('QUARRY_PORT');
  if (env.QUARRY_DATA_DIR) out.dataDir = env.QUARRY_DATA_DIR;
  if (env.QUARRY_LOG_LEVEL) out.logLevel = env.QUARRY_LOG_LEVEL;
  if (list('QUARRY_API_KEYS')) out.apiKeys = list('QUARRY_API_KEYS');
  if (num('QUARRY_RATE_LIMIT_PER_MINUTE') !== undefined) out.rateLimitPerMinute = num('QUARRY_RATE_LIMIT_PER_MINUTE');
  const redis = env.QUARRY_REDIS_URL || env.REDIS_URL;
  if (redis) out.redisUrl = redis;
  if (bool('QUARRY_ALLOW_PRIVATE_NETWORK') !== undefined) outbound.allowPrivateNetwork = bool('QUARRY_ALLOW_PRIVATE_NETWORK');
  if (list('QUARRY_ALLOW_HOSTS')) outbound.allowHosts = list('QUARRY_ALLOW_HOSTS');
  if (bool('QUARRY_RESPECT_ROBOTS') !== undefined) outbound.respectRobots = bool('QUARRY_RESPECT_ROBOTS');
  if (env.QUARRY_USER_AGENT) outbound.userAgent = env.QUARRY_USER_AGENT;
  const proxy = env.QUARRY_PROXY || env.HTTPS_PROXY || env.https_proxy;
  if (proxy) outbound.proxy = proxy;
  if (Object.keys(outbound).length > 0) out.outbound = outbound;
  if (env.QUARRY_CHROMIUM_PATH) out.browser = { executablePath: env.QUARRY_CHROMIUM_PATH };
  if (list('QUARRY_MCP_TOOLS')) out.mcp = { tools: list('QUARRY_MCP_TOOLS') };
  if (env.QUARRY_WEBHOOK_SECRET) out.jobs = { webhookSecret: env.QUARRY_WEBHOOK_SECRET };
  const llm = llmEnvOverrides(env);
  if (Object.keys(llm).length > 0) out.llm = llm;
  const embeddings: Record<string, unknown> = {};
  if (env.QUARRY_EMBEDDING_MODEL) embeddings.model = env.QUARRY_EMBEDDING_MODEL;
  if (bool('QUARRY_EMBEDDING_ALLOW_REMOTE') !== undefined) embeddings.allowRemote = bool('QUARRY_EMBEDDING_ALLOW_REMOTE');
  if (env.QUARRY_EMBEDDING_REMOTE_HOST) embeddings.remoteHost = env.QUARRY_EMBEDDING_REMOTE_HOST;
  if (num('QUARRY_EMBEDDING_THREADS') !== undefined) embeddings.threads = num('QUARRY_EMBEDDING_THREADS');
  if (Object.keys(embeddings).length > 0) out.embeddings = embeddings;
  if (num('QUARRY_INDEX_RETENTION_DAYS') !== undefined) out.vectorIndex = { retentionDays: num('QUARRY_INDEX_RETENTION_DAYS') };
  return out;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Deep merge where later layers win; arrays are replaced, not concatenated. */
export function mergeLayers(...layers: Record<string, unknown>[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const layer of layers) {
    for (const [key, value] of Object.entries(layer)) {
      const current = out[key];
      out[key] = isPlainObject(current) && isPlainObject(value) ? mergeLayers(current, value) : value;
    }
  }
  return out;
}

function readConfigFile(env: Env, cwd: string): { path: string | null; data: Record<string, unknown> } {
  const explicit = env.QUARRY_CONFIG;
  const path = explicit ? resolve(cwd, explicit) : join(cwd, 'quarry.config.json');
  if (!existsSync(path)) {
    if (explicit) throw new AppError('INVALID_INPUT', `QUARRY_CONFIG points at ${path}, which does not exist`);
    return { path: null, data: {} };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new AppError('INVALID_INPUT', `config file ${path} is not valid JSON: ${(error as Error).message}`);
  }
  if (!isPlainObject(parsed)) throw new AppError('INVALID_INPUT', `config file ${path} must hold a JSON object`);
  const { $schema: _ignored, ...data } = parsed;
  return { path, data };
}

export interface LoadedConfig {
  config: QuarryConfig;
  /** The config file read, if any. */
  source: string | null;
}

/** Loads and validates configuration; `overrides` (tests, CLI flags) win over everything. */
export function loadConfig(options: { env?: Env; cwd?: string; overrides?: ConfigInput } = {}): LoadedConfig {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const file = readConfigFile(env, cwd);
  const merged = mergeLayers(file.data, envOverrides(env), (options.overrides ?? {}) as Record<string, unknown>);
  const result = configSchema.safeParse(merged);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
    throw new AppError('INVALID_INPUT', `invalid configuration${file.path ? ` (${file.path})` : ''}: ${problems.join('; ')}`, {
      details: { issues: problems },
    });
  }
  return { config: result.data, source: file.path };
}
