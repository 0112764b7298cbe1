/**
 * Input and output schemas of the Verify API (spec: Verify API, Claim verification, Source credibility, Verification
 * batch job).
 */
import { z } from 'zod';
import { httpUrlSchema } from '../../core/field-schemas.js';
import { BIAS_RATINGS, FACTUAL_RATINGS, SOURCE_CATEGORIES } from './credibility/labels.js';
import { engineIdSchema } from '../../services/web-search/schemas.js';

export const VERDICTS = ['true', 'false', 'partially_true', 'unverifiable', 'misleading'] as const;
export const DEPTHS = ['quick', 'thorough'] as const;
export const FACT_STATUSES = ['supported', 'partly_supported', 'contradicted', 'disputed', 'no_evidence'] as const;
export const MAX_BATCH_CLAIMS = 10;

const claimText = z.string().trim().min(1, 'must not be empty').max(2000, 'must be at most 2000 characters');
const engines = z
  .array(engineIdSchema)
  .min(1)
  .max(20)
  .optional()
  .describe('Extension: engines to search; default the configured search.defaultEngines');

export const claimInputSchema = z.strictObject({
  claim: claimText,
  depth: z
    .enum(DEPTHS)
    .default('quick')
    .describe(
      'quick: 1–2 searches, up to 6 pages, one round; thorough: up to 6 searches, 12 pages and a second ' +
        'round for facts without evidence',
    ),
  include_sources: z
    .boolean()
    .default(true)
    .describe('Include the evidence items (supporting_evidence, contradicting_evidence)'),
  engines,
  timeout: z
    .number()
    .min(5)
    .max(120)
    .default(45)
    .describe('Extension: seconds; bounds searching and reading (the verdict is given on what was read by then)'),
});
export type ClaimInput = z.infer<typeof claimInputSchema>;

export const evidenceSchema = z.object({
  title: z.string(),
  url: z.string(),
  snippet: z.string().describe('One sentence exactly as it stands in the page text'),
  stance: z.enum(['supporting', 'contradicting']),
  credibility_score: z.number(),
  fact: z.string().describe('Extension: the fact of the claim the sentence bears on'),
  strength: z.number().describe('Extension: 0..1, how strongly the sentence supports or contradicts the fact'),
});

export const factSchema = z.object({
  fact: z.string(),
  central: z.boolean(),
  status: z.enum(FACT_STATUSES),
  support: z.number(),
  contradiction: z.number(),
});

export const claimOutputSchema = z.object({
  claim: z.string(),
  verdict: z.enum(VERDICTS),
  confidence: z.number(),
  summary: z.string(),
  supporting_evidence: z.array(evidenceSchema),
  contradicting_evidence: z.array(evidenceSchema),
  key_facts: z.array(z.string()),
  nuances: z.string(),
  sources_checked: z.int(),
  verification_time_ms: z.int(),
  model_used: z
    .string()
    .describe(
      'Extension: what judged the evidence: the language model, the configured NLI model (models.stance), or "rules"',
    ),
  facts: z.array(factSchema).describe('Extension: each fact with its status and combined strengths'),
  queries: z.array(z.string()).describe('Extension: the searches run'),
  engines_failed: z.array(z.string()).describe('Extension: engines that failed on some search'),
});
export type ClaimAnswer = z.infer<typeof claimOutputSchema>;

export const sourceInputSchema = z.strictObject({
  url: httpUrlSchema,
});

export const sourceOutputSchema = z.object({
  domain: z.string(),
  credibility_score: z.number(),
  category: z.enum(SOURCE_CATEGORIES),
  bias_rating: z.enum(BIAS_RATINGS),
  factual_reporting: z.enum(FACTUAL_RATINGS),
  notes: z.string(),
  last_updated: z.string(),
  rated: z.boolean().describe('Extension: false when every value comes from rules, not published ratings'),
  matched_domain: z.string().nullable().describe('Extension: the name the rating was found under'),
});

export const batchInputSchema = z.strictObject({
  claims: z
    .array(claimText)
    .min(1, 'must hold at least one claim')
    .max(MAX_BATCH_CLAIMS, `at most ${MAX_BATCH_CLAIMS} claims`),
  depth: z.enum(DEPTHS).default('quick'),
  engines,
  wait_seconds: z
    .int()
    .min(0)
    .max(60)
    .optional()
    .describe(
      'Extension: how long the call waits for the job before answering "processing"; default 30 for up to 3 ' +
        'claims, else 0',
    ),
});
export type BatchInput = z.infer<typeof batchInputSchema>;

export const batchResultSchema = z.object({
  claim: z.string(),
  verdict: z.enum(VERDICTS),
  confidence: z.number(),
  summary: z.string(),
});
export type BatchResult = z.infer<typeof batchResultSchema>;

export const batchOutputSchema = z.object({
  job_id: z.string(),
  status: z
    .enum(['processing', 'completed', 'failed'])
    .describe('"failed" (extension) only when the job itself failed, never for one claim'),
  claims_count: z.int(),
  results: z.array(batchResultSchema).describe('The claims finished so far, in the order given'),
  poll_url: z.string(),
  claims_completed: z.int().describe('Extension'),
  created_at: z.string().describe('Extension: ISO 8601'),
  updated_at: z.string().describe('Extension: ISO 8601'),
  error: z.object({ code: z.string(), message: z.string() }).optional().describe('Extension: why a failed job failed'),
});
export type BatchAnswer = z.infer<typeof batchOutputSchema>;

export const batchStatusInputSchema = z.strictObject({
  job_id: z
    .string()
    .max(28)
    .regex(/^job_[a-f0-9]{24}$/, 'must be a job id like job_<24 hex digits>'),
});
