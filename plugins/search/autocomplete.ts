/** Query suggestions from the engines that offer autocomplete, merged by rank across engines. */
import { z } from 'zod';
import { defineCapability } from '../../core/capability.js';
import { escapeMarkdownText } from '../../services/markdown/escape.js';
import type { EngineService } from '../../services/engines/engine-service.js';
import { AppError, toAppError } from '../../core/errors.js';
import { languageSchema, engineIdSchema } from '../../services/web-search/schemas.js';
import { assertKnownEngines } from '../../services/web-search/search-runner.js';

const DEFAULT_ENGINES = ['duckduckgo', 'wikipedia'];

export const autocompleteInputSchema = z.strictObject({
  q: z.string().trim().min(1, 'must not be empty').max(200),
  engines: z.array(engineIdSchema).min(1).max(10).optional().describe('Engines with autocomplete; default: duckduckgo and wikipedia'),
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

/** Interleaves the engines' lists by rank, dropping case-insensitive duplicates. */
export function mergeSuggestions(lists: string[][], max: number): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  const longest = Math.max(0, ...lists.map((l) => l.length));
  for (let rank = 0; rank < longest && out.length < max; rank++) {
    for (const list of lists) {
      const suggestion = list[rank]?.trim();
      if (!suggestion || seen.has(suggestion.toLowerCase())) continue;
      seen.add(suggestion.toLowerCase());
      out.push(suggestion);
      if (out.length >= max) break;
    }
  }
  return out;
}

export function autocompleteCapability(engines: EngineService) {
  return defineCapability({
    id: 'search.autocomplete',
    title: 'Query suggestions',
    description: 'Suggest completions for a partly typed query, from the engines that offer autocomplete (duckduckgo, google, wikipedia, brave with a key).',
    input: autocompleteInputSchema,
    output: autocompleteOutputSchema,
    http: { method: 'GET', path: '/api/v1/search/autocomplete' },
    mcpTool: 'search_autocomplete',
    readOnly: true,
    toMarkdown: (out) => out.suggestions.map((s) => `- ${escapeMarkdownText(s)}`).join('\n') || '(no suggestions)',
    async handler(input, ctx) {
      const chosen = input.engines ?? DEFAULT_ENGINES.filter((id) => engines.has(id));
      assertKnownEngines(engines, chosen);
      const without = chosen.filter((id) => !engines.get(id).definition.autocomplete);
      if (without.length > 0) {
        const offering = engines.ids().filter((id) => engines.get(id).definition.autocomplete);
        throw new AppError('INVALID_INPUT', `engines: ${without.join(', ')} offer no autocomplete; engines that do: ${offering.join(', ')}`);
      }
      const byEngine: Record<string, string[]> = {};
      const errors: Record<string, { code: string; message: string }> = {};
      await Promise.all(
        chosen.map(async (id) => {
          try {
            byEngine[id] = await engines.autocomplete(id, input.q, input.language, { signal: ctx.signal, timeoutMs: 3000 });
          } catch (error) {
            const appError = toAppError(error);
            errors[id] = { code: appError.code, message: appError.message };
          }
        }),
      );
      return {
        query: input.q,
        suggestions: mergeSuggestions(chosen.filter((id) => byEngine[id]).map((id) => byEngine[id]!), input.max_suggestions),
        by_engine: byEngine,
        engines_failed: Object.keys(errors),
        engine_errors: errors,
      };
    },
  });
}
