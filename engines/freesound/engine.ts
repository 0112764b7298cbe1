/**
 * Freesound text search (freesound.org/apiv2/search/text/): Creative Commons
 * sound clips, samples and field recordings. Needs an API token
 * (engines.freesound.apiKey), sent as the token parameter.
 */
import {
  defineEngine,
  EngineAccessDeniedError,
  EngineParseError,
  EngineRateLimitedError,
  stripMarkup,
  type EngineResult,
} from '../../core/engine.js';
import { endpointUrl } from '../_lib/endpoint-url.js';
import { absoluteHttpUrl } from '../_lib/html-document.js';
import { asArray, asRecord, asString, parseJsonBody } from '../_lib/json-body.js';

const PAGE_SIZE = 15;
const SNIPPET_LENGTH = 300;
const FIELDS =
  'id,name,url,description,username,created,duration,license,tags,previews,images,type,num_downloads,avg_rating';

/** Freesound "created" times carry no zone; they are kept as given (ISO 8601 local time), fractions dropped. */
function createdDate(value: unknown): string | undefined {
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(\.\d+)?(Z|[+-]\d{2}:?\d{2})?$/.exec(asString(value) ?? '');
  return match ? `${match[1]}${match[3] ?? ''}` : undefined;
}

function toResult(value: unknown): EngineResult | undefined {
  const sound = asRecord(value);
  const id = sound?.id;
  const username = asString(sound?.username);
  const url =
    absoluteHttpUrl(asString(sound?.url)) ??
    (username && (typeof id === 'number' || typeof id === 'string')
      ? `https://freesound.org/people/${encodeURIComponent(username)}/sounds/${id}/`
      : undefined);
  const title = stripMarkup(asString(sound?.name) ?? '');
  if (!sound || !url || !title) return undefined;
  const description = stripMarkup(asString(sound.description) ?? '');
  const result: EngineResult = {
    url,
    title,
    snippet:
      description.length > SNIPPET_LENGTH ? `${description.slice(0, SNIPPET_LENGTH - 1).trimEnd()}…` : description,
  };
  if (username) result.author = username;
  const published = createdDate(sound.created);
  if (published) result.publishedDate = published;
  const images = asRecord(sound.images);
  const thumbnail = absoluteHttpUrl(asString(images?.waveform_m) ?? asString(images?.spectral_m));
  if (thumbnail) result.thumbnail = thumbnail;
  const previews = asRecord(sound.previews);
  const preview = absoluteHttpUrl(asString(previews?.['preview-hq-mp3']) ?? asString(previews?.['preview-lq-mp3']));
  const tags = asArray(sound.tags).filter((tag): tag is string => typeof tag === 'string');
  result.extra = {
    id,
    ...(typeof sound.duration === 'number' ? { durationSeconds: sound.duration } : {}),
    ...(asString(sound.license) ? { license: sound.license } : {}),
    ...(preview ? { previewUrl: preview } : {}),
    ...(asString(sound.type) ? { fileType: sound.type } : {}),
    ...(typeof sound.num_downloads === 'number' ? { downloads: sound.num_downloads } : {}),
    ...(tags.length > 0 ? { tags } : {}),
  };
  return result;
}

export default defineEngine({
  buildRequest({ query, settings }) {
    const params = {
      query: query.query,
      page: query.page,
      page_size: PAGE_SIZE,
      fields: FIELDS,
      token: settings.apiKey ?? '',
    };
    return {
      method: 'GET',
      url: endpointUrl(settings.baseUrl, '/apiv2/search/text/', params),
      headers: { accept: 'application/json' },
    };
  },

  parseResponse(response) {
    if (response.status === 401 || response.status === 403)
      throw new EngineAccessDeniedError(`freesound answered ${response.status}: check engines.freesound.apiKey`);
    if (response.status === 429) throw new EngineRateLimitedError();
    // A page past the last answers 404 {"detail": "Invalid page."}.
    if (response.status === 404) return { results: [] };
    const data = parseJsonBody(response.body, 'freesound');
    // The API answers {count, next, previous, results}; a bare list of sounds is accepted too.
    const record = asRecord(data);
    if (!Array.isArray(data) && !Array.isArray(record?.results)) {
      const detail = asString(record?.detail);
      throw new EngineParseError(`freesound answered without results${detail ? `: ${detail}` : ''}`);
    }
    const sounds = Array.isArray(data) ? data : asArray(record?.results);
    return { results: sounds.map(toResult).filter((result): result is EngineResult => result !== undefined) };
  },
});
