/**
 * Mixcloud search (api.mixcloud.com/search/?type=cloudcast): DJ mixes, radio
 * shows and podcasts. The public API needs no key.
 */
import {
  defineEngine,
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

function toResult(value: unknown): EngineResult | undefined {
  const show = asRecord(value);
  const url = absoluteHttpUrl(asString(show?.url));
  const title = stripMarkup(asString(show?.name) ?? '');
  if (!show || !url || !title) return undefined;
  const user = asRecord(show.user);
  const author = asString(user?.name) ?? asString(user?.username);
  const tags = asArray(show.tags)
    .map((tag) => asString(asRecord(tag)?.name))
    .filter((name): name is string => name !== undefined);
  const result: EngineResult = {
    url,
    title,
    snippet: [author && `by ${stripMarkup(author)}`, tags.join(', ')].filter(Boolean).join(' · '),
  };
  if (author) result.author = stripMarkup(author);
  const published = isoDate(show.created_time);
  if (published) result.publishedDate = published;
  const pictures = asRecord(show.pictures);
  const thumbnail = absoluteHttpUrl(
    asString(pictures?.medium) ?? asString(pictures?.thumbnail) ?? asString(pictures?.large),
  );
  if (thumbnail) result.thumbnail = thumbnail;
  result.extra = {
    ...(asString(show.key) ? { key: show.key } : {}),
    ...(typeof show.audio_length === 'number' ? { durationSeconds: show.audio_length } : {}),
    ...(typeof show.play_count === 'number' ? { plays: show.play_count } : {}),
    ...(typeof show.favorite_count === 'number' ? { favorites: show.favorite_count } : {}),
    ...(tags.length > 0 ? { tags } : {}),
  };
  return result;
}

export default defineEngine({
  buildRequest({ query, settings }) {
    const params = {
      q: query.query,
      type: 'cloudcast',
      limit: PAGE_SIZE,
      offset: query.page > 1 ? (query.page - 1) * PAGE_SIZE : undefined,
    };
    return {
      method: 'GET',
      url: endpointUrl(settings.baseUrl, '/search/', params),
      headers: { accept: 'application/json' },
    };
  },

  parseResponse(response) {
    if (response.status === 429) throw new EngineRateLimitedError();
    const data = asRecord(parseJsonBody(response.body, 'mixcloud'));
    const error = asRecord(data?.error);
    if (error) {
      if (asString(error.type) === 'RateLimitException')
        throw new EngineRateLimitedError(`mixcloud: ${asString(error.message) ?? 'rate limited'}`);
      throw new EngineParseError(
        `mixcloud error ${asString(error.type) ?? ''}: ${asString(error.message) ?? ''}`.trim(),
      );
    }
    if (!data || !Array.isArray(data.data)) throw new EngineParseError('mixcloud answered without data');
    return {
      results: asArray(data.data)
        .map(toResult)
        .filter((result): result is EngineResult => result !== undefined),
    };
  },
});
