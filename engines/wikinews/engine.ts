/**
 * Wikinews through the MediaWiki action API (en.wikinews.org/w/api.php,
 * list=search), newest articles first. Snippets come with searchmatch
 * highlighting markup, which is stripped.
 */
import {
  defineEngine,
  EngineParseError,
  stripMarkup,
  type EngineResult,
  type HttpRequestSpec,
} from '../../core/engine.js';
import { endpointUrl } from '../_lib/endpoint-url.js';
import { asArray, asRecord, asString, parseJsonBody } from '../_lib/json-body.js';
import { isoDate } from '../_lib/dates.js';

const PAGE_SIZE = 10;

/** A page title as its /wiki/ URL on the same wiki. */
export function articleUrl(baseUrl: string, title: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/wiki/${encodeURIComponent(title.replace(/ /g, '_')).replace(/%2F/g, '/').replace(/%3A/g, ':')}`;
}

export default defineEngine({
  buildRequest({ query, settings }): HttpRequestSpec {
    const params = {
      action: 'query',
      list: 'search',
      srsearch: query.query,
      srnamespace: 0,
      srlimit: PAGE_SIZE,
      sroffset: (query.page - 1) * PAGE_SIZE,
      srprop: 'snippet|timestamp',
      srsort: 'create_timestamp_desc',
      format: 'json',
      formatversion: 2,
    };
    return { method: 'GET', url: endpointUrl(settings.baseUrl, '/w/api.php', params) };
  },

  parseResponse(response, { settings }) {
    const data = asRecord(parseJsonBody(response.body, 'wikinews'));
    if (!data) throw new EngineParseError('wikinews answered with JSON that is not an object');
    const error = asRecord(data.error);
    if (error)
      throw new EngineParseError(
        `wikinews API error ${asString(error.code) ?? ''}: ${asString(error.info) ?? ''}`.trim(),
      );
    const results: EngineResult[] = [];
    for (const hit of asArray(asRecord(data.query)?.search).map(asRecord)) {
      const title = asString(hit?.title);
      if (!hit || !title) continue;
      const result: EngineResult = {
        url: articleUrl(settings.baseUrl, title),
        title: stripMarkup(title),
        snippet: stripMarkup(asString(hit.snippet) ?? ''),
      };
      // The last edit's time: Wikinews articles are archived (frozen) soon after publication.
      const timestamp = isoDate(hit.timestamp);
      if (timestamp) result.publishedDate = timestamp;
      results.push(result);
    }
    return { results };
  },
});
