/**
 * The exa area (/api/v1/exa): Exa-compatible search, contents and find-similar
 * on the neural search pipeline. Point exa-js at `<base>/api/v1/exa`.
 */
import { EXA_USES } from './uses.js';
import { defineCapability } from '../../core/capability.js';
import { definePlugin } from '../../app/plugin-services.js';
import { outboundLinkPolicy } from '../../services/markdown/link-policy.js';
import { exaFindSimilar } from './find-similar.js';
import { exaContents } from './get-contents.js';
import { renderResults } from './render.js';
import {
  exaContentsInputSchema,
  exaContentsOutputSchema,
  exaFindSimilarInputSchema,
  exaFindSimilarOutputSchema,
  exaSearchInputSchema,
  exaSearchOutputSchema,
} from './schemas.js';
import { exaSearch } from './search.js';

/**
 * exa-js reads a failure's message from the `error` object (Quarry's own) or from
 * `error` + `message` strings; `message` and Exa's `tag` are added beside Quarry's error.
 */
const exaError = (error: { code: string; message: string }) => ({ message: error.message, tag: error.code });

export default definePlugin({
  uses: EXA_USES,
  setup(services) {
    const linkPolicy = outboundLinkPolicy(services.config.outbound);

    const search = defineCapability({
      id: 'exa.search',
      title: 'Search (Exa-compatible)',
      description:
        'Search the web by meaning (engines plus the local page index, ranked by embeddings blended with ' +
        'words). Filters: domains, published dates, phrases. ' +
        "contents asks for each result's text, highlights with scores, and a summary (extractive without an " +
        'LLM). Exa-compatible (POST /search).',
      input: exaSearchInputSchema,
      output: exaSearchOutputSchema,
      http: { method: 'POST', path: '/api/v1/exa/search' },
      mcpTool: 'exa_search',
      readOnly: true,
      errorBody: exaError,
      toMarkdown: (out) => renderResults(`Search (${out.resolvedSearchType})`, out.results, linkPolicy),
      async handler(input, ctx) {
        await services.searchHistory.record(ctx.caller, [input.query]);
        return exaSearch(services, input, ctx);
      },
    });

    const contents = defineCapability({
      id: 'exa.contents',
      title: 'Page contents (Exa-compatible)',
      description:
        "Read up to 100 URLs and return each page's text, highlights and summary (extractive without an " +
        'LLM). A page that cannot be read is reported in statuses; the call still succeeds. ' +
        'Exa-compatible (POST /contents).',
      input: exaContentsInputSchema,
      output: exaContentsOutputSchema,
      http: { method: 'POST', path: '/api/v1/exa/contents' },
      mcpTool: 'exa_contents',
      readOnly: true,
      errorBody: exaError,
      toMarkdown: (out) => {
        const failed = out.statuses
          .filter((s) => s.status === 'error')
          .map((s) => `- ${s.id}: ${s.error?.tag} (${s.error?.message})`);
        return (
          renderResults('Contents', out.results, linkPolicy) +
          (failed.length ? `\n\nFailed:\n${failed.join('\n')}` : '')
        );
      },
      handler: (input, ctx) => exaContents(services, input, ctx),
    });

    const similar = defineCapability({
      id: 'exa.find_similar',
      title: 'Find similar pages (Exa-compatible)',
      description:
        'Pages similar to a URL: the page is read, searched for by its title and key phrases, and candidates ' +
        'are ranked by embedding similarity to it. ' +
        'Optional contents as for exa_search. Exa-compatible (POST /findSimilar).',
      input: exaFindSimilarInputSchema,
      output: exaFindSimilarOutputSchema,
      http: { method: 'POST', path: '/api/v1/exa/findSimilar' },
      mcpTool: 'exa_find_similar',
      readOnly: true,
      errorBody: exaError,
      toMarkdown: (out) => renderResults('Similar pages', out.results, linkPolicy),
      handler: (input, ctx) => exaFindSimilar(services, input, ctx),
    });

    return [search, contents, similar];
  },
});
