/**
 * Firecrawl's account routes, which clients call to check a credential (n8n's
 * credential test is GET /team/credit-usage): a self-hosted Quarry counts no
 * credits, so the answer is a steady "plenty left" for any accepted key.
 */
import { z } from 'zod';
import { defineCapability } from '../../core/capability.js';
import { firecrawlErrorReply } from './envelope.js';
import { firecrawlRoute, type FirecrawlVersion } from './routes.js';

/** What "no limit" reads as to clients that compare it with a cost (a 32-bit-safe integer). */
const UNLIMITED = 1_000_000_000;

const usageSchema = z.object({ success: z.literal(true), data: z.looseObject({ remainingCredits: z.int() }) });

export function creditUsageCapability(version: FirecrawlVersion) {
  return defineCapability({
    id: `firecrawl.credit_usage_${version}`,
    title: `Credit usage (Firecrawl ${version})`,
    description:
      "Firecrawl's team credit and token usage, for clients that check a key with it: no credits are counted here.",
    input: z.strictObject({}),
    output: usageSchema,
    http: {
      method: 'GET',
      ...firecrawlRoute(version, '/team/credit-usage', ['/team/token-usage']),
      errorReply: firecrawlErrorReply,
    },
    readOnly: true,
    async handler() {
      return {
        success: true as const,
        data: {
          remainingCredits: UNLIMITED,
          remaining_credits: UNLIMITED,
          planCredits: UNLIMITED,
          remainingTokens: UNLIMITED,
          remaining_tokens: UNLIMITED,
          billingPeriodStart: null,
          billingPeriodEnd: null,
        },
      };
    },
  });
}
