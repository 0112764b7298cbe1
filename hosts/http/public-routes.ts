/**
 * The routes anyone may call without an API key: the service's front door
 * (GET /), liveness (/healthz) and health from real checks (/health), and —
 * unless `docsRequireKey` is set — the API documentation: the interactive
 * page (/docs, Swagger UI served from the @fastify/swagger-ui package's own
 * files — no CDN), its document (/docs/json, /docs/yaml) and
 * /api/v1/openapi.json, public as API docs usually are (clients of the
 * original service open /docs without a key). With the setting, they need the
 * key like every other route, and a browser is asked for it as an HTTP Basic password.
 */
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { QuarryApp } from '../../app/create-quarry.js';
import { askBrowsersForKey } from './api-keys.js';

export const DOCS_PREFIX = '/docs';
export const OPENAPI_PATH = '/api/v1/openapi.json';
const PUBLIC_ROUTES = new Set(['/', '/healthz', '/health']);

export type PublicRouteTest = (request: FastifyRequest) => boolean;

/** Whether a matched route needs no key (unmatched URLs are not public: they need a key, then 404). */
export function publicRouteTest(options: { docsRequireKey: boolean }): PublicRouteTest {
  return (request) => {
    const route = request.routeOptions.url;
    if (route === undefined) return false;
    if (PUBLIC_ROUTES.has(route)) return true;
    return !options.docsRequireKey && isDocsRoute(route);
  };
}

function isDocsRoute(route: string): boolean {
  return route === OPENAPI_PATH || route === DOCS_PREFIX || route.startsWith(`${DOCS_PREFIX}/`);
}

export async function registerPublicRoutes(
  server: FastifyInstance,
  app: QuarryApp,
  version: string,
  openapi: () => Record<string, unknown>,
): Promise<void> {
  server.get('/', async () => ({
    name: 'Quarry',
    description: 'Self-hosted web search, research, monitoring and knowledge-graph service',
    version,
    links: { docs: DOCS_PREFIX, openapi: OPENAPI_PATH, health: '/health', api: '/api/v1' },
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
    transformStaticCSP: (header) =>
      header.replace(/\s*upgrade-insecure-requests;?/, '').replace(' validator.swagger.io', ''),
  });
}
