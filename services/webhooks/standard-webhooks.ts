/**
 * Standard Webhooks (https://www.standardwebhooks.com): every delivery
 * carries webhook-id (the same on every attempt of one message),
 * webhook-timestamp (Unix seconds of this attempt) and webhook-signature
 * (`v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`), keyed with a
 * secret written `whsec_<base64>`. Signing is the `standardwebhooks`
 * package's, so receivers can verify with any Standard Webhooks library.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

export const WEBHOOK_HEADERS = {
  id: 'webhook-id',
  timestamp: 'webhook-timestamp',
  signature: 'webhook-signature',
} as const;

const SECRET_PREFIX = 'whsec_';
/** The standard asks for 24 to 64 bytes of key. */
const MIN_KEY_BYTES = 24;
const MAX_KEY_BYTES = 64;

/** A new secret: 32 random bytes, `whsec_` + standard base64. */
export function generateWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

/** Why a string is not a usable `whsec_<base64>` secret, or null when it is. */
export function webhookSecretProblem(secret: string): string | null {
  if (!secret.startsWith(SECRET_PREFIX)) return 'must start with "whsec_"';
  const encoded = secret.slice(SECRET_PREFIX.length);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded) || encoded.length % 4 !== 0)
    return 'must be "whsec_" followed by standard base64';
  const bytes = Buffer.from(encoded, 'base64').length;
  if (bytes < MIN_KEY_BYTES || bytes > MAX_KEY_BYTES)
    return `must encode ${MIN_KEY_BYTES} to ${MAX_KEY_BYTES} bytes (has ${bytes})`;
  return null;
}

/** The three signature headers for one attempt at `at`. */
export function signatureHeaders(secret: string, messageId: string, at: Date, body: string): Record<string, string> {
  return {
    [WEBHOOK_HEADERS.id]: messageId,
    [WEBHOOK_HEADERS.timestamp]: String(Math.floor(at.getTime() / 1000)),
    [WEBHOOK_HEADERS.signature]: new Webhook(secret).sign(messageId, at, body),
  };
}

/**
 * The raw body's HMAC-SHA256 in hex, keyed with the secret as written (`whsec_…`, the text the receiver
 * is given): Firecrawl's X-Firecrawl-Signature scheme, for receivers built for it.
 */
export function bodySignature(secret: string, body: string): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}
