/**
 * GET /graph: a page that draws the knowledge graph (Cytoscape, from the
 * installed package, never a CDN), behind the same API key as everything
 * else. Browsers cannot send X-API-Key on navigation, so the page asks for
 * HTTP Basic credentials (any user name, the API key as password): its 401
 * carries WWW-Authenticate, and the browser then sends the credentials with
 * the page's own API calls. Registered from buildHttpServer; it does not
 * depend on any area.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { askBrowsersForKey } from './api-keys.js';
import { GRAPH_PAGE_HTML, GRAPH_PAGE_SCRIPT } from './graph-page-assets.js';

let cytoscapeSource: string | null = null;

function cytoscape(): string {
  cytoscapeSource ??= readFileSync(
    join(dirname(createRequire(import.meta.url).resolve('cytoscape')), 'cytoscape.min.js'),
    'utf8',
  );
  return cytoscapeSource;
}

/**
 * The page runs only its own two scripts and talks only to this server: no
 * inline or injected script, no eval, no plugins, no framing. Inline styles
 * stay allowed (the page's <style> block; Cytoscape draws on a canvas).
 */
export const GRAPH_PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "connect-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export function registerGraphPage(server: FastifyInstance): void {
  askBrowsersForKey(server, /^\/graph(?:\/|$|\?)/);
  server.get('/graph', async (_request, reply) =>
    reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('content-security-policy', GRAPH_PAGE_CSP)
      .header('x-content-type-options', 'nosniff')
      .send(GRAPH_PAGE_HTML),
  );
  server.get('/graph/assets/graph-view.js', async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').send(GRAPH_PAGE_SCRIPT),
  );
  server.get('/graph/assets/cytoscape.min.js', async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'max-age=86400').send(cytoscape()),
  );
}
