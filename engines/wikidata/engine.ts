/**
 * Wikidata entity search (<baseUrl>/w/api.php?action=wbsearchentities): items
 * whose label or alias matches, in the query language. Each result links to
 * the item page (/wiki/Q…); the item's description is the snippet.
 */
import { defineEngine, EngineParseError, stripMarkup, type EngineResult } from '../../core/engine.js';
import { endpointUrl } from '../_lib/endpoint-url.js';
import { asArray, asRecord, asString, parseJsonBody } from '../_lib/json-body.js';

const PAGE_SIZE = 10;

function searchLanguage(language: string): string {
  return language !== 'all' && /^[a-z]{2,3}(-[a-z]+)?$/i.test(language) ? language.toLowerCase() : 'en';
}

export default defineEngine({
  buildRequest({ query, settings }) {
    const language = searchLanguage(query.language);
    const params = {
      action: 'wbsearchentities',
      search: query.query,
      language,
      uselang: language,
      type: 'item',
      limit: PAGE_SIZE,
      continue: query.page > 1 ? (query.page - 1) * PAGE_SIZE : undefined,
      format: 'json',
    };
    return {
      method: 'GET',
      url: endpointUrl(settings.baseUrl, '/w/api.php', params),
      headers: { accept: 'application/json' },
    };
  },

  parseResponse(response, { settings }) {
    const data = asRecord(parseJsonBody(response.body, 'wikidata'));
    if (!data) throw new EngineParseError('wikidata answered with JSON that is not an object');
    const error = asRecord(data.error);
    if (error)
      throw new EngineParseError(
        `wikidata API error: ${asString(error.info) ?? asString(error.code) ?? 'unknown error'}`,
      );
    const base = settings.baseUrl.replace(/\/+$/, '');
    const results: EngineResult[] = [];
    for (const entity of asArray(data.search).map(asRecord)) {
      const id = asString(entity?.id);
      if (!entity || !id || !/^[QPL]\d+$/.test(id)) continue;
      const match = asRecord(entity.match);
      const label = asString(entity.label) ?? asString(match?.text) ?? id;
      const result: EngineResult = {
        url: `${base}/wiki/${id.startsWith('P') ? `Property:${id}` : id.startsWith('L') ? `Lexeme:${id}` : id}`,
        title: stripMarkup(label) || id,
        snippet: stripMarkup(asString(entity.description) ?? ''),
      };
      const aliases = asArray(entity.aliases).filter((alias): alias is string => typeof alias === 'string');
      result.extra = {
        id,
        ...(asString(entity.concepturi) ? { conceptUri: entity.concepturi } : {}),
        ...(match && asString(match.type) ? { matchType: match.type, matchText: match.text } : {}),
        ...(aliases.length > 0 ? { aliases } : {}),
      };
      results.push(result);
    }
    return { results };
  },
});
