/**
 * Yahoo web search (search.yahoo.com/search?p=). Seven results per page
 * (b is a 1-based offset), vl restricts the language, btf the age and vm the
 * safe-search level.
 */
import {
  defineEngine,
  EngineCaptchaError,
  type HttpRequestSpec,
  type SafeSearch,
  type TimeRange,
} from '../../core/engine.js';
import { endpointUrl } from '../_lib/endpoint-url.js';
import { isYahooBlockPage, parseYahooSerp } from './yahoo-serp.js';

const PAGE_SIZE = 7;
/** Yahoo has no one-year filter; that range is left to the ranking. */
const TIME_RANGE: Partial<Record<TimeRange, string>> = { day: 'd', week: 'w', month: 'm' };
/** vm: p = off, i = moderate, r = strict. */
const SAFE_SEARCH: Record<SafeSearch, string> = { 0: 'p', 1: 'i', 2: 'r' };

export default defineEngine({
  buildRequest({ query, settings }): HttpRequestSpec {
    const params = {
      p: query.query,
      ei: 'UTF-8',
      b: (query.page - 1) * PAGE_SIZE + 1,
      vl: query.language === 'all' ? undefined : `lang_${query.language}`,
      btf: query.timeRange ? TIME_RANGE[query.timeRange] : undefined,
      vm: SAFE_SEARCH[query.safeSearch],
    };
    return { method: 'GET', url: endpointUrl(settings.baseUrl, '/search', params) };
  },

  parseResponse(response) {
    const results = parseYahooSerp(response.body);
    if (results.length === 0 && isYahooBlockPage(response.body, response.url)) {
      throw new EngineCaptchaError('yahoo answered with a bot check or consent page');
    }
    return { results };
  },
});
