/**
 * AOL search (search.aol.com/aol/search?q=). AOL's result page is served by
 * Yahoo's platform, so the markup parser is Yahoo's; ten results per page,
 * b is the 1-based offset as in AOL's own "Next" link.
 */
import { defineEngine, EngineCaptchaError, type HttpRequestSpec } from '../../core/engine.js';
import { endpointUrl } from '../_lib/endpoint-url.js';
import { isYahooBlockPage, parseYahooSerp } from '../yahoo/yahoo-serp.js';

const PAGE_SIZE = 10;

export default defineEngine({
  buildRequest({ query, settings }): HttpRequestSpec {
    const params = { q: query.query, ei: 'UTF-8', b: (query.page - 1) * PAGE_SIZE + 1, pz: PAGE_SIZE };
    return { method: 'GET', url: endpointUrl(settings.baseUrl, '/aol/search', params) };
  },

  parseResponse(response) {
    const results = parseYahooSerp(response.body);
    if (results.length === 0 && isYahooBlockPage(response.body, response.url)) {
      throw new EngineCaptchaError('aol answered with a bot check or consent page');
    }
    return { results };
  },
});
