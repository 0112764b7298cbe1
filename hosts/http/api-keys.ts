/**
 * API keys for the HTTP host: from QUARRY_API_KEYS or the config; when none
 * is configured, one is generated on first start, stored in the data
 * directory (mode 0600) and printed once to stderr. Never open by default.
 */
import { timingSafeEqual } from 'node:crypto';
import { AppError } from '../../core/errors.js';
import type { QuarryConfig } from '../../app/config.js';
import type { Logger } from '../../core/logger.js';
import { loadOrCreateSecret } from '../../core/secrets.js';

export function resolveApiKeys(config: QuarryConfig, logger: Logger): string[] {
  if (config.apiKeys.length > 0) return config.apiKeys;
  const secret = loadOrCreateSecret(config.dataDir, 'api-key', 'qk_');
  if (secret.created) {
    process.stderr.write(
      `\nQuarry generated an API key (stored in ${secret.path}, shown only once):\n\n    ${secret.value}\n\n` +
        'Send it as the X-API-Key header (or Authorization: Bearer <key>).\n\n',
    );
  } else if (secret.exposedMode !== undefined) {
    logger.warn(
      { path: secret.path, mode: `0${secret.exposedMode.toString(8)}` },
      'the stored API key file was readable by other users; its mode is now 0600 — rotate the key (delete the file and restart) if others may have read it',
    );
  } else {
    logger.info({ path: secret.path }, 'using the API key stored in the data directory');
  }
  return [secret.value];
}

/** Reads the key from X-API-Key, Authorization: Bearer, or (browsers, the graph page) Authorization: Basic with the key as password. */
export function presentedKey(headers: Record<string, string | string[] | undefined>): string | null {
  const direct = headers['x-api-key'];
  if (typeof direct === 'string' && direct.length > 0) return direct;
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

export function keyMatches(presented: string, keys: string[]): boolean {
  const given = Buffer.from(presented);
  let found = false;
  for (const key of keys) {
    const expected = Buffer.from(key);
    // Compare every key in constant time per key, without stopping early.
    if (expected.length === given.length && timingSafeEqual(expected, given)) found = true;
  }
  return found;
}

/** The presented key when it is one of keys; throws UNAUTHORIZED otherwise. */
export function authenticatedKey(headers: Record<string, string | string[] | undefined>, keys: string[]): string {
  const key = presentedKey(headers);
  if (!key) throw new AppError('UNAUTHORIZED', 'missing API key: send it as X-API-Key or Authorization: Bearer <key>');
  if (!keyMatches(key, keys)) throw new AppError('UNAUTHORIZED', 'invalid API key');
  return key;
}
