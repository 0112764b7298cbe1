/**
 * Firecrawl's account routes, which clients call to check a credential (n8n's
 * credential test is GET /team/credit-usage) and to show usage: the pages read
 * for this key so far (credit-ledger.ts, one credit per Document as Firecrawl
 * counts them) against a plan a self-hosted Quarry never runs out of, so
 * planCredits − remainingCredits is what the key has used. Tokens are not
 * counted: token usage answers the whole plan left.
 */
import { z } from 'zod';
import { defineCapability } from '../../core/capability.js';
import { creditLedgerOf } from './credit-ledger.js';
import { firecrawlErrorReply } from './envelope.js';
import { firecrawlRoute, type FirecrawlVersion } from './routes.js';
import type { FirecrawlServices } from './uses.js';

/** The plan: what "no limit" reads as to clients that compare it with a cost (a 32-bit-safe integer). */
export const PLAN_CREDITS = 1_000_000_000;

const usageSchema = z.object({
  success: z.literal(true),
  data: z.looseObject({ remainingCredits: z.int(), planCredits: z.int(), creditsUsed: z.int() }),
});

export function creditUsageCapability(services: Pick<FirecrawlServices, 'stores'>, version: FirecrawlVersion) {
  return defineCapability({
    id: `firecrawl.credit_usage_${version}`,
    title: `Credit usage (Firecrawl ${version})`,
    description:
      "Firecrawl's team credit and token usage: creditsUsed is the pages read for this key (one per document " +
      'from scrape, search, crawl, batch scrape and extract); planCredits never runs out; tokens are not counted.',
    input: z.strictObject({}),
    output: usageSchema,
    http: {
      method: 'GET',
      ...firecrawlRoute(version, '/team/credit-usage', ['/team/token-usage']),
      errorReply: firecrawlErrorReply,
    },
    readOnly: true,
    async handler(_input, ctx) {
      const used = await creditLedgerOf(services).count(ctx.caller);
      const remaining = Math.max(0, PLAN_CREDITS - used.pages);
      return {
        success: true as const,
        data: {
          remainingCredits: remaining,
          remaining_credits: remaining,
          planCredits: PLAN_CREDITS,
          plan_credits: PLAN_CREDITS,
          creditsUsed: used.pages,
          billingPeriodStart: used.since,
          billing_period_start: used.since,
          billingPeriodEnd: null,
          billing_period_end: null,
          remainingTokens: PLAN_CREDITS,
          remaining_tokens: PLAN_CREDITS,
          planTokens: PLAN_CREDITS,
        },
      };
    },
  });
}
