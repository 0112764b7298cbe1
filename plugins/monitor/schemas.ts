/** Input and output shapes of the monitor area (spec: "Monitor API", "Monitor", "Monitor result", "Events"). */
import { z } from 'zod';
import { httpUrlSchema } from '../../core/field-schemas.js';
import { deliveryStateFields } from '../../services/webhooks/delivery-schemas.js';
import { engineIdSchema } from '../../services/web-search/schemas.js';
import { normalizeSource } from './query.js';

export const MIN_INTERVAL_MINUTES = 5;
export const MAX_INTERVAL_MINUTES = 1440;
export const MAX_KEYWORDS = 20;
export const MAX_SOURCES = 20;
export const MAX_RESULTS_LIMIT = 100;

export const monitorIdSchema = z
  .string()
  .max(64)
  .regex(/^mon_[0-9a-f]{24}$/, 'must be a monitor id such as mon_0123456789abcdef01234567')
  .describe('The monitor id, mon_<24 hex digits>');

const source = z
  .string()
  .max(2048)
  .transform((value, ctx) => {
    const domain = normalizeSource(value);
    if (domain === null) {
      ctx.addIssue({ code: 'custom', message: 'must be a domain such as example.com (or a URL on it)' });
      return z.NEVER;
    }
    return domain;
  });

export const createInputSchema = z.strictObject({
  topic: z.string().trim().min(1, 'must not be empty').max(300),
  keywords: z
    .array(z.string().trim().min(1, 'must not be empty').max(100))
    .min(1, 'must list at least one keyword')
    .max(MAX_KEYWORDS)
    .describe('What the new content must mention: a result is kept when it contains one of them (or covers the topic)'),
  sources: z
    .array(source)
    .max(MAX_SOURCES)
    .optional()
    .describe('Domains to watch: searched as site filters, and only results on them are kept'),
  check_interval_minutes: z.int().min(MIN_INTERVAL_MINUTES).max(MAX_INTERVAL_MINUTES).default(60),
  webhook_url: httpUrlSchema
    .optional()
    .describe('Alert target: new content is POSTed here, signed (Standard Webhooks)'),
  deep_analysis: z
    .boolean()
    .default(false)
    .describe('Read the new pages and summarise what is new (the LLM when configured, extractive otherwise)'),
  engines: z
    .array(engineIdSchema.max(64))
    .min(1)
    .max(20)
    .optional()
    .describe('Extension: the engines to search; default the configured default engines'),
  alert_on_first_check: z
    .boolean()
    .default(true)
    .describe(
      'Extension: the first check alerts on everything it finds (its results are new content); false makes ' +
        'it only record a baseline, and later checks alert on what is new',
    ),
});
export type CreateInput = z.infer<typeof createInputSchema>;

export const monitorIdInputSchema = z.strictObject({ monitor_id: monitorIdSchema });

export const listInputSchema = z.strictObject({
  status: z.enum(['active', 'paused']).optional().describe('Extension: only monitors in this state; all by default'),
});

export const resultsInputSchema = z.strictObject({
  monitor_id: monitorIdSchema,
  limit: z.int().min(1).max(MAX_RESULTS_LIMIT).default(10).describe('Results to return, newest first (1-100)'),
});

const newResultSchema = z.object({ title: z.string(), url: z.string(), snippet: z.string() });

const lastCheckSchema = z
  .object({
    at: z.string().describe('When the check ran'),
    status: z
      .enum(['ok', 'partial', 'failed'])
      .describe('ok; partial: some engines failed or the check ran out of time; failed: nothing could be searched'),
    results_found: z.int().describe('Results the search returned that matched the monitor'),
    new_results: z.int(),
    engines_failed: z.array(z.string()),
    error: z.string().nullable(),
  })
  .nullable();

/**
 * The delivery's state as every area spells it (services/webhooks/delivery-schemas.ts), each detail null while not
 * known.
 */
const deliveryState = deliveryStateFields((field) => field.nullable());

const deliverySchema = z.object({
  // Known from the alert's enqueueing on, so never null here.
  webhook_id: z.string(),
  result_id: z.string(),
  status: deliveryState.status,
  attempts: deliveryState.attempts,
  last_error: deliveryState.last_error,
  next_attempt_at: deliveryState.next_attempt_at,
  delivered_at: deliveryState.delivered_at,
  created_at: z.string(),
});

export const listItemSchema = z.object({
  id: z.string(),
  topic: z.string(),
  keywords: z.array(z.string()),
  status: z.enum(['active', 'paused']),
  last_checked: z.string().nullable(),
  alerts_sent: z.int(),
  created_at: z.string(),
});

export const monitorSchema = listItemSchema.extend({
  sources: z.array(z.string()).nullable(),
  check_interval_minutes: z.int(),
  webhook_url: z.string().nullable().describe('null when none was given'),
  deep_analysis: z.boolean(),
  engines: z
    .array(z.string())
    .nullable()
    .describe('Extension: the engines searched; null means the configured defaults'),
  alert_on_first_check: z.boolean().describe('Extension'),
  next_check_at: z.string().nullable().describe('Extension: when the next scheduled check is due; null while paused'),
  check_in_progress: z.boolean().describe('Extension: a check of this monitor is running now'),
  checks_run: z.int().describe('Extension: checks completed'),
  results_stored: z.int().describe('Extension: results kept (the newest 100 by default)'),
  last_check: lastCheckSchema.describe('Extension: the outcome of the last check'),
  webhook_signing: z
    .enum(['monitor_secret', 'global_secret'])
    .nullable()
    .describe('Extension: which secret signs alerts; null without webhook_url'),
  deliveries: z.array(deliverySchema).describe('Extension: the delivery log of the most recent alerts, newest first'),
});

export const createOutputSchema = monitorSchema.extend({
  webhook_secret: z
    .string()
    .nullable()
    .describe(
      'Extension: the whsec_ secret that signs this monitor’s alerts, shown only here; null when ' +
        'webhook_signing is global_secret (the service’s webhooks.secret) or there is no webhook_url',
    ),
});

export const listOutputSchema = z.object({ monitors: z.array(listItemSchema) });

export const resultSchema = z.object({
  id: z.string(),
  monitor_id: z.string(),
  timestamp: z.string(),
  new_results: z.array(newResultSchema),
  analysis: z.string(),
  analysis_method: z
    .enum(['llm', 'extractive', 'titles'])
    .describe(
      'Extension: llm (model_used names it), extractive (sentences of the new pages) or titles (count and titles)',
    ),
  model_used: z.string().nullable().describe('Extension: the language model that wrote the analysis, else null'),
  baseline: z
    .boolean()
    .describe(
      'Extension: the first check’s record of what already existed (alerted unless alert_on_first_check is false)',
    ),
});

export const resultsOutputSchema = z.object({ results: z.array(resultSchema) });

export const pauseOutputSchema = z.object({ status: z.literal('paused'), monitor_id: z.string() });
export const resumeOutputSchema = z.object({ status: z.literal('active'), monitor_id: z.string() });
export const checkOutputSchema = z.object({ status: z.literal('checking'), monitor_id: z.string() });
export const deleteOutputSchema = z.object({ deleted: z.literal(true), monitor_id: z.string() });

export type MonitorView = z.infer<typeof monitorSchema>;
export type ListItemView = z.infer<typeof listItemSchema>;
export type ResultView = z.infer<typeof resultSchema>;
export type NewResult = z.infer<typeof newResultSchema>;
