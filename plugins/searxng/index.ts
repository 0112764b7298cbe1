/**
 * The searxng area: SearXNG's JSON search API, /autocompleter and /config on
 * the web search service (each engine's page N, every merged result, engine
 * health included), for the tools that speak
 * SearXNG. Point them at `<base>/searxng` (or `<base>/api/v1/searxng`); tools
 * that send no headers use a URL key, `<base>/searxng/k/<key>` (urlKeys).
 * The base itself answers a search too, as SearXNG's front page does (LangChain's
 * Python wrapper queries it). HTTP only: an MCP tool would repeat search_web.
 */
import { SEARXNG_USES } from './uses.js';
import { defineCapability } from '../../core/capability.js';
import { packageVersion } from '../../core/paths.js';
import { definePlugin } from '../../app/plugin-services.js';
import { suggestQueries } from '../../services/web-search/suggestions.js';
import { toSearxngAnswer } from './answer.js';
import { searxngCategoriesOf, searxngCategory } from './categories.js';
import { languageOf, planSearch } from './request.js';
import {
  searxngAutocompleteInputSchema,
  searxngAutocompleteOutputSchema,
  searxngConfigInputSchema,
  searxngConfigOutputSchema,
  searxngSearchInputSchema,
  searxngSearchOutputSchema,
} from './schemas.js';
import { searchService } from './search-service.js';

const BASES = ['/searxng', '/searxng/k/:url_key'];
/** Suggestions answered at most, about what SearXNG's backends give. */
const SUGGESTIONS = 10;

export default definePlugin({
  uses: SEARXNG_USES,
  setup(services) {
    const search = searchService(services);
    const { engines } = services;
    const mainCategory = (engine: string) =>
      engines.has(engine) ? engines.get(engine).manifest.categories[0] : undefined;

    const searxngSearch = defineCapability({
      id: 'searxng.search',
      title: 'Search (SearXNG-compatible)',
      description:
        "SearXNG's search API (GET, or POST with a form body): q, format=json, categories, engines, " +
        'language, pageno, time_range, safesearch; ' +
        "answered in SearXNG's JSON shape from the web search pipeline. For tools built for SearXNG; agents " +
        'use search_web.',
      input: searxngSearchInputSchema,
      output: searxngSearchOutputSchema,
      http: {
        method: 'GET',
        path: '/api/v1/searxng/search',
        aliases: BASES.flatMap((base) => [`${base}/search`, base]),
        formPost: true,
        urlKeyParam: 'url_key',
      },
      readOnly: true,
      async handler(request, ctx) {
        const plan = planSearch(request, engines);
        await services.searchHistory.record(ctx.caller, [plan.query]);
        const answer = await search(plan, ctx);
        return toSearxngAnswer(answer, {
          query: plan.query,
          categoryOf: mainCategory,
          unknownEngines: plan.unknownEngines,
        });
      },
    });

    const searxngConfig = defineCapability({
      id: 'searxng.config',
      title: 'Instance configuration (SearXNG-compatible)',
      description: "SearXNG's /config: the engines and categories this installation serves, for tools that read them.",
      input: searxngConfigInputSchema,
      output: searxngConfigOutputSchema,
      http: {
        method: 'GET',
        path: '/api/v1/searxng/config',
        aliases: BASES.map((base) => `${base}/config`),
        urlKeyParam: 'url_key',
      },
      readOnly: true,
      async handler() {
        const list = engines.ids().map((id) => {
          const { manifest } = engines.get(id);
          return {
            name: id,
            shortcut: id,
            categories: manifest.categories,
            enabled: engines.disabledReason(id) === null,
            paging: manifest.supports.paging,
            language_support: manifest.supports.languages,
            safesearch: manifest.supports.safeSearch,
            time_range_support: manifest.supports.timeRange,
            timeout: engines.timeoutMs(id) / 1000,
          };
        });
        return {
          instance_name: 'Quarry',
          version: packageVersion(),
          categories: searxngCategoriesOf(list.filter((e) => e.enabled).flatMap((e) => e.categories)),
          engines: list.map((e) => ({ ...e, categories: [...new Set(e.categories.map(searxngCategory))] })),
          plugins: [],
          autocomplete: '',
          safe_search: 1,
          default_locale: '',
          default_theme: 'simple',
          locales: {},
          public_instance: false,
        };
      },
    });

    const searxngAutocompleter = defineCapability({
      id: 'searxng.autocompleter',
      title: 'Query suggestions (SearXNG-compatible)',
      description:
        "SearXNG's /autocompleter: suggestions for a partly typed query q, answered as [q, [suggestions…]] " +
        'from the engines that offer autocomplete.',
      input: searxngAutocompleteInputSchema,
      output: searxngAutocompleteOutputSchema,
      http: {
        method: 'GET',
        path: '/api/v1/searxng/autocompleter',
        aliases: BASES.map((base) => `${base}/autocompleter`),
        formPost: true,
        urlKeyParam: 'url_key',
        answerField: 'suggestions',
      },
      readOnly: true,
      async handler(request, ctx): Promise<{ suggestions: [string, string[]] }> {
        if (request.q === '') return { suggestions: ['', []] };
        const language = languageOf(request.language);
        const found = await suggestQueries(engines, {
          query: request.q,
          // SearXNG asks its autocomplete backend in English when the language is any.
          language: !language || language === 'all' ? 'en' : language,
          max: SUGGESTIONS,
          signal: ctx.signal,
        });
        return { suggestions: [request.q, found.suggestions] };
      },
    });

    return [searxngSearch, searxngConfig, searxngAutocompleter];
  },
});
