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
import websocket from '@fastify/websocket';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { QuarryApp } from '../../app/create-quarry.js';
import { AppError } from '../../core/errors.js';
import { packageVersion } from '../../core/paths.js';
import { apiKeyRing, authenticatedKey, resolveApiKeys } from './api-keys.js';
import { mountCapability } from './capability-route.js';
import { registerGraphPage } from './graph-page.js';
import { registerMcpRoute } from './mcp-route.js';
import { buildOpenApi } from './openapi.js';
import { OPENAPI_PATH, publicRouteTest, registerPublicRoutes } from './public-routes.js';
import { RouteMethods } from './route-methods.js';
import { installTransportErrors, transportServerOptions } from './transport-errors.js';
import { redactUrlKeys, urlKeyBases, urlKeyOf, urlKeyRing } from './url-keys.js';

/** What a client may send on a WebSocket: the watchers send nothing, so little is allowed. */
const MAX_WEBSOCKET_MESSAGE_BYTES = 64 * 1024;

export interface HttpServerOptions {
  /** Keys accepted (`<group>:<key>` for a group's); resolved from config (or generated) when absent. */
  apiKeys?: string[];
  /** Keys of operators, who see every owner's resources; with apiKeys only. */
  adminApiKeys?: string[];
}

export async function buildHttpServer(app: QuarryApp, options: HttpServerOptions = {}): Promise<FastifyInstance> {
  const { config, registry, logger } = app;
  const keys = options.apiKeys ? apiKeyRing(options.apiKeys, options.adminApiKeys) : resolveApiKeys(config, logger);
  const urlKeys = urlKeyRing(config.urlKeys);
  const keyBases = urlKeyBases(registry.list());
  const isPublicRoute = publicRouteTest({ docsRequireKey: config.docsRequireKey });
  // Which methods and error answers each path has, learnt as routes are added (transport-errors.ts).
  const routes = new RouteMethods();
  const server = Fastify({
    loggerInstance: logger.child({ component: 'http' }),
    // One concise line per request is logged in onResponse below instead of fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    // A silent logger writes nothing for any request: requests share it instead of each making a child.
    ...(logger.isLevelEnabled('fatal') ? {} : { childLoggerFactory: (parent: FastifyBaseLogger) => parent }),
    bodyLimit: config.bodyLimitBytes,
    forceCloseConnections: true,
    // X-Forwarded-Proto/-Host/-For are read (request.protocol, host, ip) only from a proxy the operator says is there.
    trustProxy: config.http.trustProxy,
    ...transportServerOptions(keys, config, logger, routes),
    // Clients of the original service post to /api/v1/search (no slash); the spec's form keeps working.
    routerOptions: { ignoreTrailingSlash: true },
  }) as unknown as FastifyInstance;

  // Bodies are JSON only: without this, fastify would hand text/plain bodies to handlers as strings.
  server.removeContentTypeParser('text/plain');
  installTransportErrors(server, routes);

  // Logged at info: with the level above it, no hook runs at all.
  if (logger.isLevelEnabled('info')) {
    server.addHook('onResponse', async (request, reply) => {
      request.log.info(
        {
          method: request.method,
          url: redactUrlKeys(request.url.split('?')[0]!),
          status: reply.statusCode,
          ms: Math.round(reply.elapsedTime),
        },
        'request',
      );
    });
  }

  // Async on purpose: its answer waits a microtask, so a request whose framing breaks after its headers is still
  // answered 400 by the parser (which reads on in the same tick) rather than 401.
  server.addHook('onRequest', async (request) => {
    if (isPublicRoute(request)) return;
    const entry = urlKeyOf(request, urlKeys, keyBases) ?? authenticatedKey(request.headers, keys);
    request.apiKey = entry.key;
    request.principal = entry.principal;
  });

  const sharedRedis = app.services.stores.redis;
  await server.register(rateLimit, {
    max: config.rateLimitPerMinute,
    timeWindow: 60_000,
    // With Redis the budget is counted there, so it holds across every instance.
    ...(sharedRedis ? { redis: sharedRedis, nameSpace: 'quarry:rate-limit:' } : {}),
    hook: 'preHandler',
    allowList: (request) => isPublicRoute(request),
    keyGenerator: (request) => request.apiKey ?? request.ip,
    errorResponseBuilder: (_request, context) =>
      new AppError(
        'RATE_LIMITED',
        `rate limit of ${context.max} requests per minute exceeded; retry in ${context.after}`,
        {
          retryAfterSeconds: Math.max(1, Math.ceil(context.ttl / 1000)),
        },
      ),
  });

  const version = packageVersion();
  const openapi = buildOpenApi(registry.list(), version, { host: config.host, port: config.port });
  await registerPublicRoutes(server, app, version, () => openapi);
  server.get('/metrics', async (_request, reply) => {
    reply.type('text/plain; version=0.0.4');
    return app.services.metrics.prometheus();
  });
  server.get(OPENAPI_PATH, async () => openapi);

  const capabilities = registry.list();
  for (const capability of capabilities) if (!capability.http.websocket) mountCapability(server, app, capability);
  // Capabilities that are also WebSockets, in a scope of their own: @fastify/websocket's hooks and handler wrapper
  // then cost only their routes, not every request.
  await server.register(async (scope) => {
    await scope.register(websocket, { options: { maxPayload: MAX_WEBSOCKET_MESSAGE_BYTES } });
    // An upgrade refused in a hook before @fastify/websocket's own (a bad key: 401) is answered over the raw socket,
    // which nothing else ends: it would hold server.close() open.
    scope.addHook('onResponse', async (request) => {
      if (request.headers.upgrade?.toLowerCase() === 'websocket') request.raw.socket.destroy();
    });
    for (const capability of capabilities) if (capability.http.websocket) mountCapability(scope, app, capability);
  });
  registerGraphPage(server);
  registerMcpRoute(server, app);
  return server;
}
