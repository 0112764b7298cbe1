/**
 * Firecrawl's historical usage routes (`/team/credit-usage/historical`,
 * `/team/token-usage/historical`): the key's usage by billing period, a
 * calendar month (UTC), from the credit ledger (credit-ledger.ts). Tokens are
 * not counted, so token periods answer 0. `byApiKey` names the key each period
 * belongs to: the caller's principal (`key:<digest>`, or `group:<name>` for a
 * group, whose keys are counted as one), since a key sees only its own usage.
 */
import { z } from 'zod';
import { defineCapability } from '../../core/capability.js';
import type { Principal } from '../../core/principal.js';
import { creditLedgerOf } from './credit-ledger.js';
import { firecrawlErrorReply } from './envelope.js';
import { firecrawlRoute, type FirecrawlVersion } from './routes.js';
import type { FirecrawlServices } from './uses.js';

type UsageServices = Pick<FirecrawlServices, 'stores'>;
type Measure = 'credits' | 'tokens';

const historyInput = z.strictObject({
  byApiKey: z.boolean().optional().describe('Name the API key (here: its principal) each period belongs to.'),
});

const period = {
  startDate: z.string().nullable(),
  endDate: z.string().nullable(),
  apiKey: z.string().optional(),
};

const OUTPUTS = {
  credits: z.object({ success: z.literal(true), periods: z.array(z.object({ ...period, creditsUsed: z.int() })) }),
  tokens: z.object({ success: z.literal(true), periods: z.array(z.object({ ...period, tokensUsed: z.int() })) }),
};

/** What each measure answers per period: the ledger's pages for credits; tokens are not counted. */
const USED = {
  credits: (pages: number) => ({ creditsUsed: pages }),
  tokens: (_pages: number) => ({ tokensUsed: 0 }),
};

const DESCRIPTIONS = {
  credits:
    "This key's credits by billing period (calendar month, UTC), oldest first: one per document read, as " +
    '/team/credit-usage counts them.',
  tokens: "This key's billing periods (calendar month, UTC) with 0 tokens: Quarry does not count LLM tokens.",
};

function keyName(caller: Principal | undefined, byApiKey: boolean | undefined): { apiKey?: string } {
  return byApiKey && caller ? { apiKey: caller.id } : {};
}

function historyCapability(services: UsageServices, version: FirecrawlVersion, measure: Measure) {
  return defineCapability({
    id: `firecrawl.${measure === 'credits' ? 'credit' : 'token'}_usage_historical_${version}`,
    title: `Historical ${measure === 'credits' ? 'credit' : 'token'} usage (Firecrawl ${version})`,
    description: DESCRIPTIONS[measure],
    input: historyInput,
    output: OUTPUTS[measure] as z.ZodType<{ success: true; periods: Array<Record<string, unknown>> }>,
    http: {
      method: 'GET',
      ...firecrawlRoute(version, `/team/${measure === 'credits' ? 'credit' : 'token'}-usage/historical`),
      errorReply: firecrawlErrorReply,
    },
    readOnly: true,
    async handler(input, ctx) {
      const periods = await creditLedgerOf(services).history(ctx.caller);
      return {
        success: true as const,
        periods: periods.map(({ startDate, endDate, pages }) => ({
          startDate,
          endDate,
          ...keyName(ctx.caller, input.byApiKey),
          ...USED[measure](pages),
        })),
      };
    },
  });
}

export function usageHistoryCapabilities(services: UsageServices, version: FirecrawlVersion) {
  return [historyCapability(services, version, 'credits'), historyCapability(services, version, 'tokens')];
}
