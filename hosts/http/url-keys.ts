/**
 * Keys in the URL path, for tools that can only be given a URL (Open WebUI,
 * Perplexica): a capability's alias declares the path parameter
 * (`/searxng/k/:url_key/search`), and the key there is checked against the
 * configured URL keys, never the API keys — a URL key opens only those
 * routes, and an API key is never accepted in a URL. Off while no URL key is
 * configured. The segment after `/k/` is redacted wherever the host logs a path.
 * A path under a URL-key base that no route serves (`/searxng/k/<key>/nonsense`)
 * has its key checked the same way, so a right key gets the 404 the path deserves
 * and a wrong one 401, never "missing API key".
 */
import type { FastifyRequest } from 'fastify';
import type { AnyCapability } from '../../core/capability.js';
import { AppError } from '../../core/errors.js';
import { apiKeyRing, matchingKey, type ApiKey } from './api-keys.js';
import { routeConfigOf } from './route-config.js';

/** The URL keys as accepted keys: each its own principal, never an admin. */
export function urlKeyRing(urlKeys: readonly string[]): ApiKey[] {
  return apiKeyRing(urlKeys);
}

/** Where URL keys sit in paths: each alias's text before its key parameter (`/searxng/k/`). */
export function urlKeyBases(capabilities: readonly AnyCapability[]): string[] {
  const bases = new Set<string>();
  for (const { http } of capabilities) {
    if (!http.urlKeyParam) continue;
    const marker = `/:${http.urlKeyParam}`;
    for (const url of [http.path, ...(http.aliases ?? [])]) {
      const at = url.indexOf(marker);
      if (at >= 0) bases.add(url.slice(0, at + 1));
    }
  }
  return [...bases];
}

/**
 * The URL key of a route that carries one (or of an unserved path under a URL-key base), checked; null when the
 * request has none (its key comes from the headers). Throws UNAUTHORIZED for a wrong key, or when URL keys are off.
 */
export function urlKeyOf(request: FastifyRequest, urlKeys: readonly ApiKey[], bases: readonly string[]): ApiKey | null {
  const presented = presentedUrlKey(request, bases);
  if (!presented) return null;
  if (urlKeys.length === 0) {
    throw new AppError(
      'UNAUTHORIZED',
      'keys in URLs are off on this installation: configure urlKeys (QUARRY_URL_KEYS), or send an API key as ' +
        'X-API-Key or Authorization: Bearer',
    );
  }
  const entry = matchingKey(presented, urlKeys);
  if (!entry) throw new AppError('UNAUTHORIZED', 'invalid URL key');
  return entry;
}

function presentedUrlKey(request: FastifyRequest, bases: readonly string[]): string | undefined {
  const param = routeConfigOf(request).urlKeyParam;
  if (param) return (request.params as Record<string, string | undefined>)[param];
  // A matched route without a key parameter takes its key from the headers.
  if (request.routeOptions.url !== undefined) return undefined;
  const path = request.url.split('?')[0]!;
  for (const base of bases) {
    if (!path.startsWith(base)) continue;
    const segment = path.slice(base.length).split('/')[0];
    if (segment) return safeDecode(segment);
  }
  return undefined;
}

/** A path segment as the router would decode it; one that does not decode is taken as sent (and fails the check). */
function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

const KEY_SEGMENT = /\/k\/[^/?#]+/g;

/** A path as the logs may show it: the segment after /k/ replaced. */
export function redactUrlKeys(path: string): string {
  return path.replace(KEY_SEGMENT, '/k/[redacted]');
}
