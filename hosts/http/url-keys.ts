/**
 * Keys in the URL path, for tools that can only be given a URL (Open WebUI,
 * Perplexica): a capability's alias declares the path parameter
 * (`/searxng/k/:url_key/search`), and the key there is checked against the
 * configured URL keys, never the API keys — a URL key opens only those
 * routes, and an API key is never accepted in a URL. Off while no URL key is
 * configured. The segment after `/k/` is redacted wherever the host logs a path.
 */
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../core/errors.js';
import { apiKeyRing, matchingKey, type ApiKey } from './api-keys.js';
import { routeConfigOf } from './route-config.js';

/** The URL keys as accepted keys: each its own principal, never an admin. */
export function urlKeyRing(urlKeys: readonly string[]): ApiKey[] {
  return apiKeyRing(urlKeys);
}

/**
 * The URL key of a route that carries one, checked; null for a route that has none
 * (its key comes from the headers). Throws UNAUTHORIZED for a wrong key, or when URL keys are off.
 */
export function urlKeyOf(request: FastifyRequest, urlKeys: readonly ApiKey[]): ApiKey | null {
  const param = routeConfigOf(request).urlKeyParam;
  if (!param) return null;
  const presented = (request.params as Record<string, string | undefined>)[param];
  if (!presented) return null;
  if (urlKeys.length === 0) {
    throw new AppError('UNAUTHORIZED', 'keys in URLs are off on this installation: configure urlKeys (QUARRY_URL_KEYS), or send an API key as X-API-Key or Authorization: Bearer');
  }
  const entry = matchingKey(presented, urlKeys);
  if (!entry) throw new AppError('UNAUTHORIZED', 'invalid URL key');
  return entry;
}

const KEY_SEGMENT = /\/k\/[^/?#]+/g;

/** A path as the logs may show it: the segment after /k/ replaced. */
export function redactUrlKeys(path: string): string {
  return path.replace(KEY_SEGMENT, '/k/[redacted]');
}
