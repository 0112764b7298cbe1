/**
 * The routes anyone may call without an API key: the service's front door
 * (GET /), liveness (/healthz) and health from real checks (/health). The
 * interactive API documentation (/docs, Swagger UI served from the
 * @fastify/swagger-ui package's own files — no CDN) is registered here too,
 * but needs the key like /api/v1/openapi.json, which it shows: a browser is
 * asked for it as an HTTP Basic password.
 */
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { QuarryApp } from '../../app/create-quarry.js';
import { askBrowsersForKey } from './api-keys.js';

export const DOCS_PREFIX = '/docs';
const PUBLIC_ROUTES = new Set(['/', '/healthz', '/health']);

/** Whether the matched route needs no key (unmatched URLs are not public: they need a key, then 404). */
export function isPublicRoute(request: FastifyRequest): boolean {
  const route = request.routeOptions.url;
  return route !== undefined && PUBLIC_ROUTES.has(route);
}

export async function registerPublicRoutes(server: FastifyInstance, app: QuarryApp, version: string, openapi: () => Record<string, unknown>): Promise<void> {
  server.get('/', async () => ({
    name: 'Quarry',
    description: 'Self-hosted web search, research, monitoring and knowledge-graph service',
    version,
    links: { docs: DOCS_PREFIX, openapi: '/api/v1/openapi.json', health: '/health', api: '/api/v1' },
  }));

  server.get('/healthz', async () => ({ status: 'ok', version }));

  // 200 whether healthy or degraded: the service answers either way; the body says what is wrong.
  server.get('/health', async () => ({ ...(await app.health.report()), version, timestamp: new Date().toISOString() }));

  askBrowsersForKey(server, /^\/docs(?:\/|$|\?)/);
  await server.register(fastifySwagger, { mode: 'static', specification: { document: openapi() as never } });
  await server.register(fastifySwaggerUi, {
    routePrefix: DOCS_PREFIX,
    // validatorUrl null: Swagger UI would otherwise fetch a badge from validator.swagger.io.
    uiConfig: { docExpansion: 'list', deepLinking: true, validatorUrl: null },
    staticCSP: true,
    // The package's policy also upgrades requests to https, which breaks the page on a plain-http installation.
    transformStaticCSP: (header) => header.replace(/\s*upgrade-insecure-requests;?/, '').replace(' validator.swagger.io', ''),
  });
}
