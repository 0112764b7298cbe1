/**
 * Starts Quarry in-process against the sandbox web: every engine's base URL
 * points at the sandbox, only the sandbox's own port is allowed through the
 * private-address guard, state lives in a temporary data directory.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { createQuarry, type QuarryApp } from '../../app/create-quarry.js';
import { loadBuiltinEngines } from '../../services/engines/engine-sources.js';
import { mergeLayers, type ConfigInput } from '../../app/config.js';
import { buildHttpServer } from '../../hosts/http/server.js';
import type { AnyCapability } from '../../core/capability.js';
import type { Logger } from '../../core/logger.js';
import { startLocalRedis } from '../sandbox/local-redis.js';
import type { SandboxWeb } from '../sandbox/sandbox-web.js';

export const TEST_KEY = 'test-key-0123456789';
/** A Standard Webhooks secret (whsec_ + base64 of 32 bytes), fixed so tests can verify deliveries. */
export const WEBHOOK_SECRET = 'whsec_dGVzdC13ZWJob29rLXNlY3JldC0wMTIzNDU2Nzg5YWI=';

export interface RunningQuarry {
  app: QuarryApp;
  server: FastifyInstance;
  url: string;
  dataDir: string;
  post(
    path: string,
    body: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: any; headers: Headers }>;
  get(path: string, headers?: Record<string, string>): Promise<{ status: number; body: any; headers: Headers }>;
  /** Any method, with an optional JSON body. */
  request(method: string, path: string, body?: unknown): Promise<{ status: number; body: any; headers: Headers }>;
  close(): Promise<void>;
}

export async function sandboxConfig(web: SandboxWeb, dataDir: string): Promise<ConfigInput> {
  const engines = await loadBuiltinEngines();
  return {
    dataDir,
    apiKeys: [TEST_KEY],
    logLevel: 'silent',
    outbound: { allowHosts: [`127.0.0.1:${web.port}`], retries: 0 },
    engines: Object.fromEntries(engines.map((e) => [e.manifest.id, { baseUrl: web.engineBaseUrl(e.manifest.id) }])),
    webhooks: { secret: WEBHOOK_SECRET },
  };
}

/** One HTTP exchange, the body parsed as JSON when it is JSON (the one JSON call of both harnesses). */
export async function call(url: string, init: RequestInit): Promise<{ status: number; body: any; headers: Headers }> {
  const response = await fetch(url, init);
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON (metrics)
  }
  return { status: response.status, body, headers: response.headers };
}

export interface StartOptions {
  /** Where the app logs (tests that read the log); silent by default. */
  logger?: Logger;
  /** Extra capabilities served next to the plugins' (tests of the hosts' own behaviour). */
  capabilities?: AnyCapability[];
  /**
   * With `dataDir`, state lives there and survives close() (restart tests); else in a temporary folder removed on
   * close.
   */
  dataDir?: string;
  /** Keys the HTTP host accepts (`<group>:<key>` for a group's); default [TEST_KEY], which post/get/request send. */
  apiKeys?: string[];
  /** Keys of admins (docs/http-api.md "Keys and ownership"). */
  adminApiKeys?: string[];
}

export async function startQuarry(
  web: SandboxWeb,
  overrides: ConfigInput = {},
  options: StartOptions = {},
): Promise<RunningQuarry> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'quarry-test-'));
  const config = mergeLayers(
    (await sandboxConfig(web, dataDir)) as Record<string, unknown>,
    overrides as Record<string, unknown>,
  );
  const app = await createQuarry({
    overrides: config as ConfigInput,
    env: {},
    ...(options.logger ? { logger: options.logger } : {}),
  });
  for (const capability of options.capabilities ?? []) app.registry.register(capability, 'test');
  const server = await buildHttpServer(app, {
    apiKeys: options.apiKeys ?? [TEST_KEY],
    ...(options.adminApiKeys ? { adminApiKeys: options.adminApiKeys } : {}),
  });
  const url = await server.listen({ host: '127.0.0.1', port: 0 });
  const auth = { 'x-api-key': TEST_KEY };
  return {
    app,
    server,
    url,
    dataDir,
    post: (path, body, headers = {}) =>
      call(url + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...auth, ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }),
    get: (path, headers = {}) => call(url + path, { headers: { ...auth, ...headers } }),
    request: (method, path, body) =>
      call(url + path, {
        method,
        headers: { ...auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    async close() {
      await server.close();
      await app.close();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Two instances on one throwaway Redis (tests of what every instance shares): runs `test` with both, then closes
 * them and the Redis whatever it came to.
 */
export async function onTwoInstances<T>(
  web: SandboxWeb,
  test: (first: RunningQuarry, second: RunningQuarry) => Promise<T>,
): Promise<T> {
  const redis = await startLocalRedis();
  const opened: RunningQuarry[] = [];
  try {
    opened.push(await startQuarry(web, { redisUrl: redis.url }));
    opened.push(await startQuarry(web, { redisUrl: redis.url }));
    return await test(opened[0]!, opened[1]!);
  } finally {
    for (const quarry of opened.reverse()) await quarry.close();
    await redis.stop();
  }
}
