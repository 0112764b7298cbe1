/**
 * The HTTP host: serves every registered capability at its /api/v1 path.
 * It only translates — HTTP in, registry.invoke, JSON out — plus the
 * transport's own concerns: API keys, rate limits, body limits, errors as
 * JSON, OpenAPI, health and Prometheus metrics.
 */
import rateLimit from '@fastify/rate-limit';
import Fastify, { LogController, type FastifyInstance, type FastifyRequest } from 'fastify';
import type { QuarryApp } from '../../app/create-quarry.js';
import type { AnyCapability, CallContext } from '../../core/capability.js';
import { AppError } from '../../core/errors.js';
import { toJsonSchema } from '../../core/json-schema.js';
import { packageVersion } from '../../core/paths.js';
import { authenticatedKey, resolveApiKeys } from './api-keys.js';
import { buildOpenApi } from './openapi.js';
import { queryToInput } from './query-input.js';
import { installTransportErrors, transportServerOptions } from './transport-errors.js';

const PUBLIC_PATHS = new Set(['/healthz']);

export interface HttpServerOptions {
  /** Keys accepted; resolved from config (or generated) when absent. */
  apiKeys?: string[];
}

export async function buildHttpServer(app: QuarryApp, options: HttpServerOptions = {}): Promise<FastifyInstance> {
  const { config, registry, logger } = app;
  const keys = options.apiKeys ?? resolveApiKeys(config, logger);
  const server = Fastify({
    loggerInstance: logger.child({ component: 'http' }),
    // One concise line per request is logged in onResponse below instead of fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: config.bodyLimitBytes,
    forceCloseConnections: true,
    ...transportServerOptions(keys, config, logger),
  }) as unknown as FastifyInstance;

  // Bodies are JSON only: without this, fastify would hand text/plain bodies to handlers as strings.
  server.removeContentTypeParser('text/plain');
  installTransportErrors(server);

  server.addHook('onResponse', async (request, reply) => {
    request.log.info({ method: request.method, url: request.url.split('?')[0], status: reply.statusCode, ms: Math.round(reply.elapsedTime) }, 'request');
  });

  server.addHook('onRequest', async (request) => {
    const path = request.url.split('?')[0]!;
    if (PUBLIC_PATHS.has(path)) return;
    (request as FastifyRequest & { apiKey?: string }).apiKey = authenticatedKey(request.headers, keys);
  });

  await server.register(rateLimit, {
    max: config.rateLimitPerMinute,
    timeWindow: 60_000,
    hook: 'preHandler',
    allowList: (request) => PUBLIC_PATHS.has(request.url.split('?')[0]!),
    keyGenerator: (request) => (request as FastifyRequest & { apiKey?: string }).apiKey ?? request.ip,
    errorResponseBuilder: (_request, context) =>
      new AppError('RATE_LIMITED', `rate limit of ${context.max} requests per minute exceeded; retry in ${context.after}`, {
        retryAfterSeconds: Math.max(1, Math.ceil(context.ttl / 1000)),
      }),
  });

  const version = packageVersion();
  server.get('/healthz', async () => ({ status: 'ok', version }));
  server.get('/metrics', async (_request, reply) => {
    reply.type('text/plain; version=0.0.4');
    return app.services.metrics.prometheus();
  });
  let openapi: Record<string, unknown> | null = null;
  server.get('/api/v1/openapi.json', async () => (openapi ??= buildOpenApi(registry.list(), version)));

  for (const capability of registry.list()) mountCapability(server, app, capability);
  return server;
}

function mountCapability(server: FastifyInstance, app: QuarryApp, capability: AnyCapability): void {
  const inputSchema = toJsonSchema(capability.input, 'input');
  server.route({
    method: capability.http.method,
    url: capability.http.path,
    handler: async (request, reply) => {
      const raw =
        capability.http.method === 'POST'
          ? request.body
          : { ...queryToInput((request.query ?? {}) as Record<string, unknown>, inputSchema), ...((request.params ?? {}) as object) };
      if (capability.http.method === 'POST' && (raw === null || typeof raw !== 'object' || Array.isArray(raw))) {
        throw new AppError('INVALID_INPUT', 'the body must be a JSON object');
      }
      const controller = new AbortController();
      // A client that disconnects before the answer cancels the work.
      const onClose = (): void => {
        if (!reply.raw.writableFinished) controller.abort();
      };
      reply.raw.on('close', onClose);
      const ctx: CallContext = {
        signal: controller.signal,
        logger: request.log as CallContext['logger'],
        progress: () => undefined,
        host: 'http',
        baseUrl: `${request.protocol}://${request.host}`,
      };
      try {
        const output = await app.registry.invoke(capability.id, raw, ctx);
        reply.status(capability.http.status ?? 200);
        return output;
      } finally {
        reply.raw.off('close', onClose);
      }
    },
  });
}
