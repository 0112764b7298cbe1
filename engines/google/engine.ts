/**
 * Google web results from its HTML page. One parser serves the no-JS page
 * (gbv=1, links wrapped in /url?q=), the desktop page and the mobile page:
 * a result is a link holding a heading (h3, or role=heading on mobile).
 */
import { defineEngine, EngineParseError, type EngineResult } from '../../core/engine.js';
import { assertNotBlocked, googleSearchParams, headedResults } from '../_google/google.js';
import { endpointUrl } from '../_lib/endpoint-url.js';
import { textOf } from '../_lib/html-document.js';
import { parseJsonBody } from '../_lib/json-body.js';

const PAGE_SIZE = 10;
const SUGGEST_ORIGIN = 'https://suggestqueries.google.com';
/** Snippet containers across the no-JS (s3v9rd), desktop (VwiC3b, data-sncf) and older (st) layouts. */
const SNIPPET_SELECTORS = ['.VwiC3b', '[data-sncf]', '.s3v9rd', '.st', '.yDYNvb', '.lEBKkf'];

function parseResults(html: string): EngineResult[] {
  return headedResults(html).map(({ url, title, container }) => {
    const snippetElement = SNIPPET_SELECTORS.map((selector) => container.querySelector(selector)).find(
      (element) => element !== null,
    );
    return { url, title, snippet: textOf(snippetElement) };
  });
}

export default defineEngine({
  buildRequest({ query, settings }) {
    return { method: 'GET', url: endpointUrl(settings.baseUrl, '/search', googleSearchParams(query, PAGE_SIZE)) };
  },

  parseResponse(response) {
    if (response.body.trim() === '') throw new EngineParseError('google answered with an empty page');
    const results = parseResults(response.body);
    assertNotBlocked('google', response, results.length);
    return { results };
  },

  autocomplete: {
    buildRequest(text, { settings, manifest, language }) {
      // Suggestions are served from suggestqueries.google.com; an overridden baseUrl serves both.
      const base =
        settings.baseUrl.replace(/\/+$/, '') === manifest.baseUrl.replace(/\/+$/, '')
          ? SUGGEST_ORIGIN
          : settings.baseUrl;
      return {
        method: 'GET',
        url: endpointUrl(base, '/complete/search', {
          client: 'firefox',
          q: text,
          hl: language === 'all' ? undefined : language,
        }),
      };
    },
    parseResponse(response) {
      const data = parseJsonBody(response.body, 'google autocomplete');
      // client=firefox answers ["query", ["suggestion", ...]].
      if (Array.isArray(data) && Array.isArray(data[1]))
        return data[1].filter((s): s is string => typeof s === 'string');
      throw new EngineParseError('google autocomplete answered in an unknown format');
    },
  },
});
