/**
 * Mastodon status search (<instance>/api/v2/search?type=statuses). Point
 * engines.mastodon.baseUrl at your own instance. Mastodon only runs full-text
 * status search for signed-in users, so the engine needs an access token
 * (engines.mastodon.apiKey, scope read:search), sent as a Bearer token.
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
const TITLE_LENGTH = 100;
const SNIPPET_LENGTH = 500;

/**
 * Status HTML to text: paragraph and line breaks become spaces, inline link
 * and span tags vanish without a gap, and the "invisible" parts Mastodon
 * hides in shortened links (scheme, long tails) are dropped.
 */
function statusText(html: string): string {
  const text = html
    .replace(/<span class="invisible">[^<]*<\/span>/gi, '')
    .replace(/<\/?(?:a|span)(?:\s[^>]*)?>/gi, '')
    .replace(/<br\s*\/?>|<\/p>/gi, ' ');
  return stripMarkup(text);
}

function shorten(text: string, length: number): string {
  return text.length > length ? `${text.slice(0, length - 1).trimEnd()}…` : text;
}

function toResult(value: unknown): EngineResult | undefined {
  const status = asRecord(value);
  const url = absoluteHttpUrl(asString(status?.url)) ?? absoluteHttpUrl(asString(status?.uri));
  if (!status || !url) return undefined;
  const account = asRecord(status.account);
  const acct = asString(account?.acct);
  const displayName = stripMarkup(asString(account?.display_name) ?? '') || asString(account?.username) || acct;
  const spoiler = stripMarkup(asString(status.spoiler_text) ?? '');
  const text = statusText(asString(status.content) ?? '');
  // A content warning leads, as on Mastodon itself; the title shows only the warning.
  const body = spoiler ? `CW: ${spoiler} — ${text}` : text;
  const title = shorten(displayName ? `${displayName}: ${spoiler ? `CW: ${spoiler}` : text}` : body, TITLE_LENGTH);
  if (!title.trim()) return undefined;
  const result: EngineResult = { url, title, snippet: shorten(body, SNIPPET_LENGTH) };
  if (acct) result.author = `@${acct}`;
  const published = isoDate(status.created_at);
  if (published) result.publishedDate = published;
  const media = asArray(status.media_attachments).map(asRecord);
  const preview = media.map((item) => absoluteHttpUrl(asString(item?.preview_url))).find(Boolean);
  // Media of sensitive posts is not shown as a thumbnail.
  if (preview && status.sensitive !== true) result.thumbnail = preview;
  else {
    const avatar = absoluteHttpUrl(asString(account?.avatar_static) ?? asString(account?.avatar));
    if (avatar) result.thumbnail = avatar;
  }
  result.extra = {
    ...(typeof status.replies_count === 'number' ? { replies: status.replies_count } : {}),
    ...(typeof status.reblogs_count === 'number' ? { boosts: status.reblogs_count } : {}),
    ...(typeof status.favourites_count === 'number' ? { favourites: status.favourites_count } : {}),
    ...(asString(status.language) ? { language: status.language } : {}),
    ...(status.sensitive === true ? { sensitive: true } : {}),
    ...(media.length > 0 ? { media: media.length } : {}),
    ...(absoluteHttpUrl(asString(account?.url)) ? { accountUrl: account?.url } : {}),
  };
  return result;
}

export default defineEngine({
  buildRequest({ query, settings }) {
    const params = {
      q: query.query,
      type: 'statuses',
      limit: PAGE_SIZE,
      offset: query.page > 1 ? (query.page - 1) * PAGE_SIZE : undefined,
      resolve: 'false',
    };
    const headers: Record<string, string> = { accept: 'application/json' };
    if (settings.apiKey) headers.authorization = `Bearer ${settings.apiKey}`;
    return { method: 'GET', url: endpointUrl(settings.baseUrl, '/api/v2/search', params), headers };
  },

  parseResponse(response) {
    if (response.status === 401 || response.status === 403)
      throw new EngineAccessDeniedError(
        `mastodon answered ${response.status}: check engines.mastodon.apiKey (an access token with read:search)`,
      );
    if (response.status === 429) throw new EngineRateLimitedError();
    const data = asRecord(parseJsonBody(response.body, 'mastodon'));
    if (!data) throw new EngineParseError('mastodon answered with JSON that is not an object');
    if (asString(data.error)) throw new EngineParseError(`mastodon error: ${asString(data.error)}`);
    if (!Array.isArray(data.statuses)) throw new EngineParseError('mastodon answered without statuses');
    return {
      results: asArray(data.statuses)
        .map(toResult)
        .filter((result): result is EngineResult => result !== undefined),
    };
  },
});
