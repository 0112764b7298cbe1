/**
 * The HTTP host: serves every registered capability at its /api/v1 path.
 * It only translates — HTTP in, registry.invoke, JSON out — plus the
 * transport's own concerns: API keys, rate limits, body limits, errors as
 * JSON, OpenAPI, health and Prometheus metrics.
 */
import rateLimit from '@fastify/rate-limit';
import Fastify, { LogController, type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { QuarryApp } from '../../app/create-quarry.js';
import type { AnyCapability, CallContext } from '../../core/capability.js';
import { AppError, toAppError } from '../../core/errors.js';
import { toJsonSchema } from '../../core/json-schema.js';
import { packageVersion } from '../../core/paths.js';
import { keyMatches, presentedKey, resolveApiKeys } from './api-keys.js';
import { buildOpenApi } from './openapi.js';
import { queryToInput } from './query-input.js';

const PUBLIC_PATHS = new Set(['/healthz']);

/** Maps fastify's own transport errors (body parsing, limits) onto the catalogue. */
function fromFastifyError(error: FastifyError): AppError {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('PAYLOAD_TOO_LARGE', 'request body is larger than the configured limit');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('UNSUPPORTED_MEDIA_TYPE', 'send the body as JSON with Content-Type: application/json');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('MALFORMED_JSON', 'the body is empty but Content-Type says JSON');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new AppError('MALFORMED_JSON', `the body is not valid JSON: ${error.message}`);
    default:
      break;
  }
  if (error instanceof SyntaxError || (error.statusCode === 400 && /JSON/i.test(error.name))) {
    return new AppError('MALFORMED_JSON', `the body is not valid JSON: ${error.message}`);
  }
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    return new AppError('INVALID_INPUT', error.message);
  }
  return toAppError(error);
}

function sendError(reply: FastifyReply, error: AppError): FastifyReply {
  if (error.retryAfterSeconds !== undefined) reply.header('retry-after', String(Math.ceil(error.retryAfterSeconds)));
  return reply.status(error.status).type('application/json').send(error.toBody());
}

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
    return503OnClosing: true,
    forceCloseConnections: true,
  }) as unknown as FastifyInstance;

  // Bodies are JSON only: without this, fastify would hand text/plain bodies to handlers as strings.
  server.removeContentTypeParser('text/plain');

  server.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    const appError = error instanceof AppError ? error : fromFastifyError(error as FastifyError);
    if (appError.status >= 500) request.log.error({ err: error, url: request.url }, appError.message);
    return sendError(reply, appError);
  });
  server.setNotFoundHandler((request, reply) =>
    sendError(reply, new AppError('NOT_FOUND', `no route ${request.method} ${request.url.split('?')[0]}; see /api/v1/openapi.json`)),
  );

  server.addHook('onResponse', async (request, reply) => {
    request.log.info({ method: request.method, url: request.url.split('?')[0], status: reply.statusCode, ms: Math.round(reply.elapsedTime) }, 'request');
  });

  server.addHook('onRequest', async (request) => {
    const path = request.url.split('?')[0]!;
    if (PUBLIC_PATHS.has(path)) return;
    const key = presentedKey(request.headers);
    if (!key) throw new AppError('UNAUTHORIZED', 'missing API key: send it as X-API-Key or Authorization: Bearer <key>');
    if (!keyMatches(key, keys)) throw new AppError('UNAUTHORIZED', 'invalid API key');
    (request as FastifyRequest & { apiKey?: string }).apiKey = key;
  });

  const sharedRedis = app.services.stores.redis;
  await server.register(rateLimit, {
    max: config.rateLimitPerMinute,
    timeWindow: 60_000,
    // With Redis the budget is counted there, so it holds across every instance.
    ...(sharedRedis ? { redis: sharedRedis, nameSpace: 'quarry:rate-limit:' } : {}),
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
