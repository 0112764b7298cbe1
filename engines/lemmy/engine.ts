/**
 * Lemmy post search (<instance>/api/v3/search?type_=Posts). Point
 * engines.lemmy.baseUrl at your own instance; it searches what that instance
 * has federated. No account is needed.
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

const PAGE_SIZE = 20;
const SNIPPET_LENGTH = 400;

/** Lemmy 0.19 dates end in Z; 0.18 wrote naive UTC times ("2023-06-10T12:00:00.123456"). */
export function lemmyDate(value: unknown): string | undefined {
  const text = asString(value);
  if (!text || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(text)) return undefined;
  const zoned = /(Z|[+-]\d{2}:?\d{2})$/.test(text) ? text : `${text}Z`;
  const date = new Date(zoned.replace(/(\.\d{3})\d+/, '$1'));
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** Markdown post bodies to plain text: links keep their text, images and emphasis marks go. */
function markdownText(markdown: string): string {
  return stripMarkup(
    markdown
      .replace(/!\[[^\]]*\]\([^)]*\)/g, ' ')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/^#{1,6}\s+|^>\s?/gm, '')
      .replace(/\*\*|__|~~|`/g, ''),
  );
}

function toResult(value: unknown): EngineResult | undefined {
  const view = asRecord(value);
  const post = asRecord(view?.post);
  const url = absoluteHttpUrl(asString(post?.ap_id));
  const title = stripMarkup(asString(post?.name) ?? '');
  if (!post || !url || !title || post.deleted === true || post.removed === true) return undefined;
  const link = absoluteHttpUrl(asString(post.url));
  const body = markdownText(asString(post.body) ?? '');
  const text = body || (link ? link : '');
  const result: EngineResult = {
    url,
    title,
    snippet: text.length > SNIPPET_LENGTH ? `${text.slice(0, SNIPPET_LENGTH - 1).trimEnd()}…` : text,
  };
  const creator = asRecord(view?.creator);
  const author = asString(creator?.display_name) || asString(creator?.name);
  if (author) result.author = author;
  const published = lemmyDate(post.published);
  if (published) result.publishedDate = published;
  const thumbnail = absoluteHttpUrl(asString(post.thumbnail_url));
  if (thumbnail && post.nsfw !== true) result.thumbnail = thumbnail;
  const community = asRecord(view?.community);
  const counts = asRecord(view?.counts);
  result.extra = {
    ...(link ? { link } : {}),
    ...(asString(community?.name) ? { community: community?.name } : {}),
    ...(absoluteHttpUrl(asString(community?.actor_id)) ? { communityUrl: community?.actor_id } : {}),
    ...(typeof counts?.score === 'number' ? { score: counts.score } : {}),
    ...(typeof counts?.comments === 'number' ? { comments: counts.comments } : {}),
    ...(post.nsfw === true ? { nsfw: true } : {}),
  };
  return result;
}

export default defineEngine({
  buildRequest({ query, settings }) {
    const params = {
      q: query.query,
      type_: 'Posts',
      sort: 'TopAll',
      listing_type: 'All',
      page: query.page,
      limit: PAGE_SIZE,
    };
    return {
      method: 'GET',
      url: endpointUrl(settings.baseUrl, '/api/v3/search', params),
      headers: { accept: 'application/json' },
    };
  },

  parseResponse(response) {
    if (response.status === 429) throw new EngineRateLimitedError();
    const data = asRecord(parseJsonBody(response.body, 'lemmy'));
    if (!data) throw new EngineParseError('lemmy answered with JSON that is not an object');
    const error = asString(data.error);
    if (error === 'rate_limit_error') throw new EngineRateLimitedError('lemmy: rate_limit_error');
    if (error) throw new EngineParseError(`lemmy error: ${error}`);
    if (!Array.isArray(data.posts)) throw new EngineParseError('lemmy answered without posts');
    return {
      results: asArray(data.posts)
        .map(toResult)
        .filter((result): result is EngineResult => result !== undefined),
    };
  },
});
