/**
 * Query expansion for neural search (use_autoprompt). With a language model
 * configured, the fast tier rewrites the query into alternative searches;
 * without one (or when it fails), rules do:
 *
 *   1. a question becomes its keywords ("how do I fix a flat tyre?" → "fix flat tyre");
 *   2. the category adds its focus ("… research paper", "… latest news", "… documentation", "… stock market");
 *   3. a long query also yields its strongest three keywords.
 */
import type { LlmTiers } from '../llm/registry.js';
import type { Logger } from '../../core/logger.js';
import type { NeuralCategory } from './schemas.js';
import { modelFor } from '../llm/model-choice.js';
import { isStopWord, writtenWords } from '../ranking/tokens.js';

export const MAX_EXPANSIONS = 3;

/** How a question or request opens ("how do I", "please tell me about"): dropped before the keywords are taken. */
const QUESTION_LEAD =
  /^(?:please\s+)?(?:(?:what|which|who|whom|whose|when|where|why|how)(?:\s+(?:is|are|was|were|do|does|did|can|could|should|would|will|to|much|many|long|often))?|(?:is|are|can|could|should|would|do|does|did)\b|(?:tell me|explain|show me|find|i want to know|i need)(?:\s+(?:about|how|what|why))?)\s+/i;

const CATEGORY_FOCUS: Record<NeuralCategory, string | null> = {
  general: null,
  news: 'latest news',
  academic: 'research paper',
  tech: 'documentation',
  finance: 'stock market',
};

export interface Expansion {
  queries: string[];
  /** "rules", or the model that wrote the expansions. */
  by: string;
}

function keywords(query: string): string[] {
  const stripped = query.replace(QUESTION_LEAD, '').replace(/[?!.]+$/g, '');
  // The one stop-word list (services/ranking/tokens.ts).
  return writtenWords(stripped).filter((w) => !isStopWord(w.toLowerCase()));
}

export function ruleExpansions(query: string, category: NeuralCategory | undefined): string[] {
  const out: string[] = [];
  const words = keywords(query);
  const keywordQuery = words.join(' ');
  if (keywordQuery && keywordQuery.toLowerCase() !== query.toLowerCase()) out.push(keywordQuery);
  const focus = category ? CATEGORY_FOCUS[category] : null;
  const base = keywordQuery || query;
  if (focus && !base.toLowerCase().includes(focus.split(' ')[1]!)) out.push(`${base} ${focus}`);
  if (words.length > 4) {
    const strongest = [...words].sort((a, b) => b.length - a.length).slice(0, 3);
    out.push(words.filter((w) => strongest.includes(w)).join(' '));
  }
  return dedupe(out, query).slice(0, MAX_EXPANSIONS);
}

function dedupe(queries: string[], original: string): string[] {
  const seen = new Set([original.trim().toLowerCase()]);
  const out: string[] = [];
  for (const q of queries.map((s) => s.trim()).filter(Boolean)) {
    if (seen.has(q.toLowerCase())) continue;
    seen.add(q.toLowerCase());
    out.push(q);
  }
  return out;
}

export async function expandQuery(
  query: string,
  category: NeuralCategory | undefined,
  llm: LlmTiers,
  logger: Logger,
  signal: AbortSignal,
): Promise<Expansion> {
  const client = modelFor(llm, 'query-expansion');
  if (client) {
    try {
      const response = await client.complete({
        system:
          'You rewrite web search queries. Given a query, return JSON {"queries": [...]} with up to three ' +
          'alternative search-engine queries ' +
          'that find pages answering the same need: use synonyms and the words such pages would use. No ' +
          'numbering, no quotes inside queries.',
        messages: [{ role: 'user', content: `Query: ${query}${category ? `\nTopic area: ${category}` : ''}` }],
        json: {
          name: 'expansions',
          schema: {
            type: 'object',
            properties: { queries: { type: 'array', items: { type: 'string' }, maxItems: MAX_EXPANSIONS } },
            required: ['queries'],
            additionalProperties: false,
          },
        },
        maxTokens: 200,
        temperature: 0.2,
        signal,
      });
      const queries = (response.json as { queries?: unknown } | undefined)?.queries;
      if (Array.isArray(queries)) {
        const clean = dedupe(
          queries.filter((q): q is string => typeof q === 'string' && q.length <= 300),
          query,
        ).slice(0, MAX_EXPANSIONS);
        if (clean.length > 0) return { queries: clean, by: response.model };
      }
      logger.warn(
        { model: response.model },
        'the language model gave no usable query expansions; using rule-based ones',
      );
    } catch (error) {
      logger.warn({ err: error }, 'query expansion by the language model failed; using rule-based expansions');
    }
  }
  return { queries: ruleExpansions(query, category), by: 'rules' };
}
