/**
 * API keys for the HTTP host and the principal each one acts as (README
 * "Keys and ownership"): from QUARRY_API_KEYS / QUARRY_ADMIN_KEYS or the
 * config; when none is configured, one is generated on first start, stored in
 * the data directory (mode 0600) and printed once to stderr — the machine
 * owner's key, so an admin. Never open by default.
 *
 * A configured key written `<group>:<key>` shares its resources with the
 * other keys of that group; any other key owns its resources alone.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../core/errors.js';
import type { QuarryConfig } from '../../app/config.js';
import type { Logger } from '../../core/logger.js';
import type { Principal } from '../../core/principal.js';
import { loadOrCreateSecret } from '../../core/secrets.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The key this request authenticated with (rate limits count per key); absent on public routes. */
    apiKey?: string;
    /** Who the request acts for (CallContext.caller of every route, /mcp included); absent on public routes. */
    principal?: Principal;
  }
}

/** An accepted key and the principal it acts as. */
export interface ApiKey {
  key: string;
  principal: Principal;
}

const GROUP_ENTRY = /^([A-Za-z0-9_.-]{1,64}):(.+)$/;
const MIN_KEY_CHARS = 8;

/** Keys as configured: `<group>:<key>` entries share the group's principal; admin keys see everything. */
export function apiKeyRing(entries: readonly string[], adminKeys: readonly string[] = []): ApiKey[] {
  const ring = entries.map((entry): ApiKey => {
    const grouped = GROUP_ENTRY.exec(entry);
    if (!grouped) return { key: entry, principal: { id: keyPrincipalId(entry), admin: false } };
    const [, group, key] = grouped as unknown as [string, string, string];
    if (key.length < MIN_KEY_CHARS)
      throw new Error(`apiKeys: the key of group "${group}" must have at least ${MIN_KEY_CHARS} characters`);
    return { key, principal: { id: `group:${group}`, admin: false } };
  });
  return [...ring, ...adminKeys.map((key) => ({ key, principal: { id: keyPrincipalId(key), admin: true } }))];
}

/** Resources are owned under a digest of the key, never the key itself. */
export function keyPrincipalId(key: string): string {
  return `key:${createHash('sha256').update(key).digest('hex').slice(0, 24)}`;
}

export function resolveApiKeys(config: QuarryConfig, logger: Logger): ApiKey[] {
  if (config.apiKeys.length > 0 || config.adminApiKeys.length > 0)
    return apiKeyRing(config.apiKeys, config.adminApiKeys);
  return apiKeyRing([], [generatedKey(config, logger)]);
}

function generatedKey(config: QuarryConfig, logger: Logger): string {
  const secret = loadOrCreateSecret(config.dataDir, 'api-key', 'qk_');
  if (secret.created) {
    process.stderr.write(
      `\nQuarry generated an API key (stored in ${secret.path}, shown only once):\n\n    ${secret.value}\n\n` +
        'Send it as the X-API-Key header (or Authorization: Bearer <key>).\n\n',
    );
  } else if (secret.exposedMode !== undefined) {
    logger.warn(
      { path: secret.path, mode: `0${secret.exposedMode.toString(8)}` },
      'the stored API key file was readable by other users; its mode is now 0600 — rotate the key (delete ' +
        'the file and restart) if others may have read it',
    );
  } else {
    logger.info({ path: secret.path }, 'using the API key stored in the data directory');
  }
  return secret.value;
}

/**
 * Reads the key from X-API-Key, Authorization: Bearer, (browsers, the graph page) Authorization: Basic with the key
 * as password, or on a WebSocket upgrade the first subprotocol (browsers and Firecrawl's watcher cannot send
 * headers there).
 */
export function presentedKey(headers: Record<string, string | string[] | undefined>): string | null {
  const direct = headers['x-api-key'];
  if (typeof direct === 'string' && direct.length > 0) return direct;
  const protocols = headers['sec-websocket-protocol'];
  if (typeof protocols === 'string' && headers.authorization === undefined) {
    const first = protocols.split(',')[0]!.trim();
    if (first.length > 0) return first;
  }
  const auth = headers.authorization;
  if (typeof auth === 'string') {
    const match = /^Bearer\s+(.+)$/i.exec(auth.trim());
    if (match) return match[1]!.trim();
    const basic = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(auth.trim());
    if (basic) {
      const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
      const password = decoded.slice(decoded.indexOf(':') + 1);
      if (decoded.includes(':') && password.length > 0) return password;
    }
  }
  return null;
}

/**
 * Pages a browser navigates to (the graph, the API docs) cannot send X-API-Key: their 401 carries
 * WWW-Authenticate, so the browser asks for HTTP Basic credentials (any user name, the key as password).
 */
export function askBrowsersForKey(server: FastifyInstance, path: RegExp): void {
  // Runs on every answer: with done rather than async, no promise per request.
  server.addHook('onSend', (request, reply, payload, done) => {
    if (reply.statusCode === 401 && path.test(request.url))
      reply.header('www-authenticate', 'Basic realm="Quarry", charset="UTF-8"');
    done(null, payload);
  });
}

/** Each entry's key as bytes, encoded once rather than on every request. */
const keyBytes = new WeakMap<ApiKey, Buffer>();

function bytesOf(entry: ApiKey): Buffer {
  let bytes = keyBytes.get(entry);
  if (!bytes) {
    bytes = Buffer.from(entry.key);
    keyBytes.set(entry, bytes);
  }
  return bytes;
}

/** The entry of the presented key, or null. An admin entry wins when a key is listed twice. */
export function matchingKey(presented: string, keys: readonly ApiKey[]): ApiKey | null {
  const given = Buffer.from(presented);
  let found: ApiKey | null = null;
  for (const entry of keys) {
    const expected = bytesOf(entry);
    // Compare every key in constant time per key, without stopping early.
    if (expected.length === given.length && timingSafeEqual(expected, given) && !found?.principal.admin) found = entry;
  }
  return found;
}

/** The entry of the presented key when it is one of keys; throws UNAUTHORIZED otherwise. */
export function authenticatedKey(
  headers: Record<string, string | string[] | undefined>,
  keys: readonly ApiKey[],
): ApiKey {
  const key = presentedKey(headers);
  if (!key) throw new AppError('UNAUTHORIZED', 'missing API key: send it as X-API-Key or Authorization: Bearer <key>');
  const entry = matchingKey(key, keys);
  if (!entry) throw new AppError('UNAUTHORIZED', 'invalid API key');
  return entry;
}
