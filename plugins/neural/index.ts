/** The neural area (/api/v1/neural): search by meaning, similar pages, highlights, next searches, categories. */
import { NEURAL_USES } from './uses.js';
import { z } from 'zod';
import { defineCapability } from '../../core/capability.js';
import { definePlugin } from '../../app/plugin-services.js';
import { findHighlights } from '../../services/ranking/highlights.js';
import { neuralSearch } from '../../services/neural-search/neural-search.js';
import { predictNext } from './predictive.js';
import {
  highlightsInputSchema,
  highlightsOutputSchema,
  predictiveInputSchema,
  predictiveOutputSchema,
} from './schemas.js';
import {
  NEURAL_CATEGORIES,
  neuralSearchInputSchema,
  neuralSearchOutputSchema,
  similarInputSchema,
  similarOutputSchema,
} from '../../services/neural-search/schemas.js';
import { similarSearch } from '../../services/neural-search/similar.js';
import { escapeMarkdownText as text, inlineText, markdownLink } from '../../services/markdown/escape.js';
import { renderSourceList } from '../../services/markdown/source-list.js';
import { outboundLinkPolicy } from '../../services/markdown/link-policy.js';

function oneLine(value: string): string {
  return value.replace(/\s+/g, ' ').trim();
}

export default definePlugin({
  uses: NEURAL_USES,
  setup(services) {
    const linkPolicy = outboundLinkPolicy(services.config.outbound);
    const search = defineCapability({
      id: 'neural.search',
      title: 'Search by meaning',
      description:
        'Search the web by meaning: the query is expanded (use_autoprompt), sent to the engines of the ' +
        'category, the pages are read, and results ' +
        '(plus pages from the local index of everything Quarry has read) are ranked by embedding similarity ' +
        'blended with a lexical score. ' +
        'Filters: include/exclude domains, published-date window. Optional highlights per result.',
      input: neuralSearchInputSchema,
      output: neuralSearchOutputSchema,
      http: { method: 'POST', path: '/api/v1/neural/search', fieldAliases: { top_k: { field: 'num_results' } } },
      mcpTool: 'neural_search',
      readOnly: true,
      toMarkdown: (out) =>
        [
          `# Neural search: ${text(out.query)}`,
          out.expanded_queries.length ? `Expanded: ${text(out.expanded_queries.join('; '))}` : '',
          ...out.results.map(
            (r, i) =>
              `\n## ${i + 1}. ${markdownLink(r.title || r.url, r.url, linkPolicy)}\nscore ${r.score}${r.published_date ? `, ${text(r.published_date)}` : ''}\n\n${(r.highlights ?? []).map((h) => `> ${text(oneLine(h))}`).join('\n') || text(r.content.slice(0, 500))}`,
          ),
          out.engines_failed.length ? `\nEngines failed: ${text(out.engines_failed.join(', '))}` : '',
        ]
          .filter(Boolean)
          .join('\n'),
      async handler(input, ctx) {
        await services.searchHistory.record(ctx.caller, [input.query]);
        return neuralSearch(services, input, ctx);
      },
    });

    const similar = defineCapability({
      id: 'neural.similar',
      title: 'Find similar content',
      description:
        'Find pages similar to a source URL or a text (exactly one of them): candidates from the engines and ' +
        'the local index, ranked by embedding similarity to the source.',
      input: similarInputSchema,
      output: similarOutputSchema,
      http: { method: 'POST', path: '/api/v1/neural/similar', fieldAliases: { top_k: { field: 'num_results' } } },
      mcpTool: 'neural_similar',
      readOnly: true,
      toMarkdown: (out) =>
        [
          `# Similar to ${inlineText(out.source, 200)}`,
          '',
          ...renderSourceList(
            out.similar.map((r) => ({ title: r.title, url: r.url, details: [r.score] })),
            { policy: linkPolicy, marker: 'number' },
          ),
        ].join('\n'),
      handler: (input, ctx) => similarSearch(services, input, ctx),
    });

    const highlights = defineCapability({
      id: 'neural.highlights',
      title: 'Extract highlights',
      description:
        'The sentences (or passages) of the given content that best answer the query, scored by meaning and ' +
        'words; start_index is the offset of each in the content, in Unicode code points.',
      input: highlightsInputSchema,
      output: highlightsOutputSchema,
      http: { method: 'POST', path: '/api/v1/neural/highlights', fieldAliases: { document: { field: 'content' } } },
      mcpTool: 'neural_highlights',
      readOnly: true,
      toMarkdown: (out) =>
        out.highlights.map((h) => `- (${h.relevance}, @${h.start_index}) ${text(oneLine(h.text))}`).join('\n') ||
        'No highlights.',
      async handler(input, ctx) {
        const embedder = await services.semantic.embedder();
        const found = await findHighlights(
          input.query,
          input.content,
          input.num_highlights,
          input.unit,
          embedder,
          ctx.signal,
        );
        return { query: input.query, highlights: found, embedding_model: embedder.info().id };
      },
    });

    const predictive = defineCapability({
      id: 'neural.predictive',
      title: 'Predict next searches',
      description:
        'Likely next searches from the current topic and recent searches (with neither, from the searches ' +
        "this caller made here recently): engines' autocomplete, key phrases from the context and from " +
        'indexed pages, and a language model when configured. Each with a confidence and a reason.',
      input: predictiveInputSchema,
      output: predictiveOutputSchema,
      http: { method: 'POST', path: '/api/v1/neural/predictive' },
      mcpTool: 'neural_predictive',
      readOnly: true,
      toMarkdown: (out) =>
        out.predictions.map((p) => `- ${text(`${p.query} (${p.confidence}): ${p.reason}`)}`).join('\n') ||
        'No predictions.',
      handler: (input, ctx) => predictNext(services, input, ctx),
    });

    const categories = defineCapability({
      id: 'neural.categories',
      title: 'Neural search categories',
      description: 'The categories neural search accepts, and the engines each one uses here.',
      input: z.strictObject({}),
      output: z.object({
        categories: z.array(z.enum(NEURAL_CATEGORIES)),
        engines: z.record(z.string(), z.array(z.string())),
      }),
      http: { method: 'GET', path: '/api/v1/neural/categories' },
      mcpTool: 'neural_categories',
      readOnly: true,
      async handler() {
        const engines: Record<string, string[]> = {};
        for (const category of NEURAL_CATEGORIES) {
          try {
            engines[category] = [...new Set(services.webSearch.plan(category, 'q').map((p) => p.engine))];
          } catch {
            engines[category] = [];
          }
        }
        return { categories: [...NEURAL_CATEGORIES], engines };
      },
    });

    return [search, similar, highlights, predictive, categories];
  },
});
