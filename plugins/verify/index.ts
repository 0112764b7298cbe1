/**
 * The verify area (/api/v1/verify): claim verification with its evidence, source credibility, batches of claims as
 * durable jobs.
 */
import { VERIFY_USES, type VerifyServices } from './uses.js';
import { defineCapability } from '../../core/capability.js';
import { definePlugin } from '../../app/plugin-services.js';
import { CredibilityService } from './credibility/credibility-service.js';
import { BATCH_JOB, batchCapabilities, batchJobHandler } from './batch.js';
import type { PageSource } from './evidence-pages.js';
import { outboundLinkPolicy } from '../../services/markdown/link-policy.js';
import { batchMarkdown, claimMarkdown, sourceMarkdown } from './markdown.js';
import { claimInputSchema, claimOutputSchema, sourceInputSchema, sourceOutputSchema } from './schemas.js';
import { verifyClaim, type VerifyDeps } from './verify-claim.js';

function verifyDeps(services: VerifyServices): VerifyDeps {
  const source: PageSource = services.webSearch;
  return { services, source };
}

export default definePlugin({
  uses: VERIFY_USES,
  open: (shared): VerifyServices => ({
    ...shared,
    credibility: new CredibilityService(shared.config.credibility, shared.logger.child({ component: 'credibility' })),
  }),
  jobHandlers: (_shared, services) => ({ [BATCH_JOB]: batchJobHandler(verifyDeps(services)) }),

  setup(_shared, services) {
    const linkPolicy = outboundLinkPolicy(services.config.outbound);
    const deps = verifyDeps(services);

    const claim = defineCapability({
      id: 'verify.claim',
      title: 'Verify a claim',
      description:
        'Check a factual claim against the web: the claim is split into the facts it asserts, pages are ' +
        'searched and read, and each fact is ' +
        'weighed against sentences of those pages (supports / contradicts), weighted by source credibility. ' +
        'Answers a verdict (true, false, ' +
        'partially_true, misleading, unverifiable) with a calibrated confidence, the evidence sentences with ' +
        'their URLs, the facts and nuances. ' +
        'depth "thorough" searches more and runs a second round for facts without evidence.',
      input: claimInputSchema,
      output: claimOutputSchema,
      http: { method: 'POST', path: '/api/v1/verify/claim' },
      mcpTool: 'verify_claim',
      readOnly: true,
      toMarkdown: (out) => claimMarkdown(out, linkPolicy),
      handler: (input, ctx) => verifyClaim(deps, input, ctx),
    });

    const source = defineCapability({
      id: 'verify.source',
      title: 'Rate a source',
      description:
        "Credibility of a web source's domain from published ratings (Lin et al. 2023 domain quality; MBFC " +
        'labels when the installation supplies them): ' +
        'score, factual reporting, bias, category, and notes saying where each value comes from. Subdomains ' +
        'fall back to their registrable domain; ' +
        'unrated domains get rule-based values marked as such (rated: false).',
      input: sourceInputSchema,
      output: sourceOutputSchema,
      http: { method: 'POST', path: '/api/v1/verify/source' },
      mcpTool: 'verify_source',
      readOnly: true,
      toMarkdown: sourceMarkdown,
      handler: async (input) => services.credibility.rate(input.url),
    });

    return [claim, source, ...batchCapabilities(services, batchMarkdown)];
  },
});
