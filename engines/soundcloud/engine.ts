/**
 * SoundCloud track search through the api-v2 endpoint the website uses
 * (api-v2.soundcloud.com/search/tracks). It needs a client_id
 * (engines.soundcloud.apiKey), the public id of a SoundCloud web client.
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
import { isoDate } from '../_lib/dates.js';

const PAGE_SIZE = 20;
const SNIPPET_LENGTH = 300;

function toResult(value: unknown): EngineResult | undefined {
  const track = asRecord(value);
  const url = absoluteHttpUrl(asString(track?.permalink_url));
  const title = stripMarkup(asString(track?.title) ?? '');
  if (!track || !url || !title || (track.kind !== undefined && track.kind !== 'track')) return undefined;
  const user = asRecord(track.user);
  const description = stripMarkup(asString(track.description) ?? '');
  const result: EngineResult = {
    url,
    title,
    snippet:
      description.length > SNIPPET_LENGTH ? `${description.slice(0, SNIPPET_LENGTH - 1).trimEnd()}…` : description,
  };
  const author = asString(user?.username);
  if (author) result.author = author;
  const published = isoDate(track.display_date) ?? isoDate(track.created_at);
  if (published) result.publishedDate = published;
  const artwork = absoluteHttpUrl(asString(track.artwork_url) ?? asString(user?.avatar_url));
  if (artwork) result.thumbnail = artwork;
  result.extra = {
    id: track.id,
    ...(typeof track.duration === 'number' ? { durationSeconds: Math.round(track.duration / 1000) } : {}),
    ...(asString(track.genre) ? { genre: track.genre } : {}),
    ...(typeof track.playback_count === 'number' ? { plays: track.playback_count } : {}),
    ...(typeof track.likes_count === 'number' ? { likes: track.likes_count } : {}),
    ...(asString(user?.permalink_url) ? { artistUrl: user?.permalink_url } : {}),
  };
  return result;
}

export default defineEngine({
  buildRequest({ query, settings }) {
    const params = {
      q: query.query,
      client_id: settings.apiKey ?? '',
      limit: PAGE_SIZE,
      offset: query.page > 1 ? (query.page - 1) * PAGE_SIZE : undefined,
      linked_partitioning: 1,
    };
    return {
      method: 'GET',
      url: endpointUrl(settings.baseUrl, '/search/tracks', params),
      headers: { accept: 'application/json' },
    };
  },

  parseResponse(response) {
    if (response.status === 401 || response.status === 403)
      throw new EngineAccessDeniedError(
        `soundcloud answered ${response.status}: the client_id (engines.soundcloud.apiKey) is missing or expired`,
      );
    if (response.status === 429) throw new EngineRateLimitedError();
    const data = asRecord(parseJsonBody(response.body, 'soundcloud'));
    if (!data || !Array.isArray(data.collection))
      throw new EngineParseError('soundcloud answered without a collection');
    return {
      results: asArray(data.collection)
        .map(toResult)
        .filter((result): result is EngineResult => result !== undefined),
    };
  },
});
