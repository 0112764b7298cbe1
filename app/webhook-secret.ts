/**
 * The webhook signing secret: configured (webhooks.secret,
 * QUARRY_WEBHOOK_SECRET), or generated once and kept where every instance
 * finds it — in Redis when the state is shared there (so all instances sign
 * alike), else in the data directory (<dataDir>/webhook-signing-secret).
 */
import type { Logger } from '../core/logger.js';
import { loadOrCreateSecret } from '../core/secrets.js';
import type { Stores } from '../core/stores/stores.js';
import { generateWebhookSecret, webhookSecretProblem } from '../services/webhooks/standard-webhooks.js';
import type { QuarryConfig } from './config.js';

export const WEBHOOK_SECRET_FILE = 'webhook-signing-secret';
export const WEBHOOK_SECRET_REDIS_KEY = 'quarry:webhook-signing-secret';

export async function resolveWebhookSecret(
  config: QuarryConfig,
  stores: Pick<Stores, 'redis'>,
  logger: Pick<Logger, 'warn'>,
): Promise<string> {
  if (config.webhooks.secret) return config.webhooks.secret;
  if (stores.redis) {
    // NX: the first instance to start generates it; the others read that one.
    await stores.redis.set(WEBHOOK_SECRET_REDIS_KEY, generateWebhookSecret(), 'NX');
    const shared = await stores.redis.get(WEBHOOK_SECRET_REDIS_KEY);
    if (shared && !webhookSecretProblem(shared)) return shared;
    throw new Error(`the webhook secret stored in Redis under ${WEBHOOK_SECRET_REDIS_KEY} is not a whsec_ secret`);
  }
  const stored = loadOrCreateSecret(config.dataDir, WEBHOOK_SECRET_FILE, '', generateWebhookSecret);
  if (stored.exposedMode !== undefined) {
    logger.warn(
      { path: stored.path, mode: `0${stored.exposedMode.toString(8)}` },
      'the stored webhook secret was readable by other users; its mode is now 0600 — rotate it if others may ' +
        'have read it',
    );
  }
  const problem = webhookSecretProblem(stored.value);
  if (problem) throw new Error(`the webhook secret in ${stored.path} ${problem}`);
  return stored.value;
}
