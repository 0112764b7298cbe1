/**
 * The HTTP host: serves every registered capability at its /api/v1 path.
 * It only translates — HTTP in, registry.invoke, JSON out — plus the
 * transport's own concerns: API keys, rate limits, body limits, errors as
 * JSON, OpenAPI, health and Prometheus metrics. Every route answers with and
 * without a trailing slash. Each capability's routes are in
 * capability-route.ts (what HTTP accepts beside the declared input in
 * http-input.ts); the routes that need no key in public-routes.ts.
 */
import rateLimit from '@fastify/rate-limit';
import Fastify, { LogController, type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { QuarryApp } from '../../app/create-quarry.js';
import { AppError, toAppError } from '../../core/errors.js';
import { packageVersion } from '../../core/paths.js';
import { keyMatches, presentedKey, resolveApiKeys } from './api-keys.js';
import { mountCapability } from './capability-route.js';
import { registerGraphPage } from './graph-page.js';
import { buildOpenApi } from './openapi.js';
import { isPublicRoute, registerPublicRoutes } from './public-routes.js';

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
    // Clients of the original service post to /api/v1/search (no slash); the spec's form keeps working.
    routerOptions: { ignoreTrailingSlash: true },
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
    if (isPublicRoute(request)) return;
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
    allowList: (request) => isPublicRoute(request),
    keyGenerator: (request) => (request as FastifyRequest & { apiKey?: string }).apiKey ?? request.ip,
    errorResponseBuilder: (_request, context) =>
      new AppError('RATE_LIMITED', `rate limit of ${context.max} requests per minute exceeded; retry in ${context.after}`, {
        retryAfterSeconds: Math.max(1, Math.ceil(context.ttl / 1000)),
      }),
  });

  const version = packageVersion();
  const openapi = buildOpenApi(registry.list(), version);
  await registerPublicRoutes(server, app, version, () => openapi);
  server.get('/metrics', async (_request, reply) => {
    reply.type('text/plain; version=0.0.4');
    return app.services.metrics.prometheus();
  });
  server.get('/api/v1/openapi.json', async () => openapi);

  for (const capability of registry.list()) mountCapability(server, app, capability);
  registerGraphPage(server);
  return server;
}
