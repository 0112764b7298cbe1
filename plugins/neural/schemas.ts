/**
 * Input and output shapes of the neural area's own capabilities (search and similar:
 * services/neural-search/schemas.ts).
 */
import { z } from 'zod';

export const highlightsInputSchema = z.strictObject({
  query: z.string().trim().min(1, 'must not be empty').max(1000),
  content: z.string().min(1, 'must not be empty').max(1_000_000),
  num_highlights: z.int().min(1).max(10).default(3),
  unit: z
    .enum(['sentence', 'passage'])
    .default('sentence')
    .describe('Extension: score single sentences or passages of up to three sentences'),
});

export const highlightsOutputSchema = z.object({
  query: z.string(),
  highlights: z.array(
    z.object({
      text: z.string(),
      relevance: z.number(),
      start_index: z.int().describe('Offset of text in content, in Unicode code points'),
    }),
  ),
  embedding_model: z.string(),
});

/** Neither context nor recent_searches is required: with neither, the caller's own recent searches here are used. */
export const predictiveInputSchema = z.strictObject({
  context: z.string().trim().min(1).max(5000).optional(),
  recent_searches: z.array(z.string().trim().min(1).max(500)).max(50).optional(),
  num_predictions: z.int().min(1).max(10).default(5),
});

export const predictiveOutputSchema = z.object({
  predictions: z.array(z.object({ query: z.string(), confidence: z.number(), reason: z.string() })),
  context_used: z.boolean(),
  model_used: z.string(),
  sources_failed: z.array(z.string()).describe('Extension: autocomplete engines or the LLM that did not answer'),
  recent_searches_used: z
    .array(z.string())
    .describe(
      'Extension: the searches predicted from, oldest first — the ones sent, or with neither context nor ' +
        "recent_searches, this caller's recent searches here",
    ),
});
