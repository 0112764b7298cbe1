/** Query suggestions from the engines that offer autocomplete, merged by rank across engines. */
import { z } from 'zod';
import { defineCapability } from '../../core/capability.js';
import { escapeMarkdownText } from '../../services/markdown/escape.js';
import type { EngineService } from '../../services/engines/engine-service.js';
import { languageSchema, engineIdSchema } from '../../services/web-search/schemas.js';
import { suggestQueries } from '../../services/web-search/suggestions.js';

export const autocompleteInputSchema = z.strictObject({
  q: z.string().trim().min(1, 'must not be empty').max(200),
  engines: z
    .array(engineIdSchema)
    .min(1)
    .max(10)
    .optional()
    .describe('Engines with autocomplete; default: duckduckgo and wikipedia'),
  language: languageSchema.default('en'),
  max_suggestions: z.int().min(1).max(50).default(10),
});

export const autocompleteOutputSchema = z.object({
  query: z.string(),
  suggestions: z.array(z.string()),
  by_engine: z.record(z.string(), z.array(z.string())),
  engines_failed: z.array(z.string()),
  engine_errors: z.record(z.string(), z.object({ code: z.string(), message: z.string() })),
});

export function autocompleteCapability(engines: EngineService) {
  return defineCapability({
    id: 'search.autocomplete',
    title: 'Query suggestions',
    description:
      'Suggest completions for a partly typed query, from the engines that offer autocomplete (duckduckgo, ' +
      'google, wikipedia, brave with a key).',
    input: autocompleteInputSchema,
    output: autocompleteOutputSchema,
    http: { method: 'GET', path: '/api/v1/search/autocomplete' },
    mcpTool: 'search_autocomplete',
    readOnly: true,
    toMarkdown: (out) => out.suggestions.map((s) => `- ${escapeMarkdownText(s)}`).join('\n') || '(no suggestions)',
    async handler(input, ctx) {
      const found = await suggestQueries(engines, {
        query: input.q,
        ...(input.engines ? { engines: input.engines } : {}),
        language: input.language,
        max: input.max_suggestions,
        signal: ctx.signal,
      });
      return {
        query: input.q,
        suggestions: found.suggestions,
        by_engine: found.byEngine,
        engines_failed: Object.keys(found.errors),
        engine_errors: found.errors,
      };
    },
  });
}
