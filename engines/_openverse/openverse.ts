/**
 * What the Openverse engines (images, audio) share: api.openverse.org's
 * keyless GET /v1/<media>/ search, its answers and error answers, and the
 * licence names of the works it indexes.
 */
import {
  EngineParseError,
  EngineRateLimitedError,
  type EngineQuery,
  type EngineSettings,
  type HttpRequestSpec,
  type EngineResponse,
} from '../../core/engine.js';
import { endpointUrl } from '../_lib/endpoint-url.js';
import { asArray, asRecord, asString, parseJsonBody } from '../_lib/json-body.js';

const PAGE_SIZE = 20;

/** The search of one media type ("images", "audio"). */
export function openverseRequest(settings: EngineSettings, media: string, query: EngineQuery): HttpRequestSpec {
  return {
    method: 'GET',
    url: endpointUrl(settings.baseUrl, `/v1/${media}/`, {
      q: query.query,
      page: query.page,
      page_size: PAGE_SIZE,
      // Openverse hides sensitive results unless asked; only safe search off asks.
      include_sensitive_results: query.safeSearch === 0 ? 'true' : undefined,
    }),
    headers: { accept: 'application/json' },
  };
}

/** The answer's results; 429 and answers without results (with Openverse's detail) become typed errors. */
export function openverseResults(response: EngineResponse, engine: string): unknown[] {
  if (response.status === 429) throw new EngineRateLimitedError('openverse answered 429 Too Many Requests');
  const data = asRecord(parseJsonBody(response.body, engine));
  if (!data || !Array.isArray(data.results)) {
    const detail = asString(data?.detail) ?? asString(asRecord(data?.detail)?.message);
    throw new EngineParseError(`${engine} answered without results${detail ? `: ${detail}` : ''}`);
  }
  return asArray(data.results);
}

/** license "by-sa" + version "3.0" → "CC BY-SA 3.0"; public-domain marks (cc0, pdm) keep their names. */
export function openverseLicense(license: string | undefined, version: string | undefined): string | undefined {
  if (!license) return undefined;
  const code = license.toUpperCase();
  const name = code === 'CC0' || code === 'PDM' ? code : `CC ${code}`;
  return version ? `${name} ${version}` : name;
}
