/**
 * The video search answer of the PeerTube REST API (GET /api/v1/search/videos),
 * served by any PeerTube instance and by SepiaSearch, the federation index.
 * Shared by the peertube and sepiasearch engines.
 */
import {
  EngineParseError,
  stripMarkup,
  type EngineQuery,
  type EngineResult,
  type SafeSearch,
} from '../../core/engine.js';
import { endpointUrl } from '../_lib/endpoint-url.js';
import { absoluteHttpUrl } from '../_lib/html-document.js';
import { asArray, asRecord, asString, parseJsonBody } from '../_lib/json-body.js';
import { isoDateOrUnixSeconds } from '../_lib/dates.js';
import { formatDuration } from './duration.js';

export const PEERTUBE_PAGE_SIZE = 20;
/** nsfw: "both" shows everything, "false" hides sensitive videos. */
const NSFW: Record<SafeSearch, string> = { 0: 'both', 1: 'false', 2: 'false' };

/** The search URL: relevance order, paged by start/count, language filter unless "all". */
export function peertubeSearchUrl(baseUrl: string, query: EngineQuery): string {
  const url = endpointUrl(baseUrl, '/api/v1/search/videos', {
    search: query.query,
    start: (query.page - 1) * PEERTUBE_PAGE_SIZE,
    count: PEERTUBE_PAGE_SIZE,
    sort: '-match',
    nsfw: NSFW[query.safeSearch],
  });
  const language = query.language.split('-')[0]!.toLowerCase();
  return language && language !== 'all' ? `${url}&languageOneOf[]=${encodeURIComponent(language)}` : url;
}

function name(value: unknown): string | undefined {
  const record = asRecord(value);
  return asString(record?.displayName) || asString(record?.name) || undefined;
}

function toResult(item: unknown, baseUrl: string): EngineResult | undefined {
  const video = asRecord(item);
  if (!video) return undefined;
  const title = stripMarkup(asString(video.name) ?? '');
  // Instances give url (the video's home, possibly on another instance); fall back to the watch page here.
  const uuid = asString(video.uuid);
  const url =
    absoluteHttpUrl(asString(video.url)) ?? (uuid ? `${baseUrl.replace(/\/+$/, '')}/videos/watch/${uuid}` : undefined);
  if (!title || !url) return undefined;
  const origin = new URL(url).origin;
  const result: EngineResult = {
    url,
    title,
    snippet: stripMarkup(asString(video.truncatedDescription) ?? asString(video.description) ?? ''),
  };
  const published =
    isoDateOrUnixSeconds(video.publishedAt) ??
    isoDateOrUnixSeconds(video.originallyPublishedAt) ??
    isoDateOrUnixSeconds(video.createdAt);
  if (published) result.publishedDate = published;
  const author = name(video.account) ?? name(video.channel);
  if (author) result.author = author;
  const thumbnailPath = asString(video.thumbnailPath);
  const thumbnail =
    absoluteHttpUrl(asString(video.thumbnailUrl)) ??
    (thumbnailPath ? absoluteHttpUrl(thumbnailPath, origin) : undefined);
  if (thumbnail) result.thumbnail = thumbnail;
  const extra: Record<string, unknown> = {};
  const duration = formatDuration(video.duration);
  if (duration) {
    extra.duration = duration;
    extra.durationSeconds = video.duration;
  }
  if (typeof video.views === 'number') extra.views = video.views;
  const embedPath = asString(video.embedPath);
  const embed =
    absoluteHttpUrl(asString(video.embedUrl)) ?? (embedPath ? absoluteHttpUrl(embedPath, origin) : undefined);
  if (embed) extra.embedUrl = embed;
  const channel = name(video.channel);
  if (channel) extra.channel = channel;
  if (video.isLive === true) extra.live = true;
  if (Object.keys(extra).length > 0) result.extra = extra;
  return result;
}

/** Parses { total, data: [video] }; an answer without a data array is a parse error. */
export function parsePeertubeVideos(body: string, engineName: string, baseUrl: string): EngineResult[] {
  const data = asRecord(parseJsonBody(body, engineName));
  if (!data || !Array.isArray(data.data)) {
    const error = asString(data?.error) ?? asString(data?.detail);
    throw new EngineParseError(`${engineName} answered without a data array${error ? `: ${error}` : ''}`);
  }
  return asArray(data.data)
    .map((item) => toResult(item, baseUrl))
    .filter((result): result is EngineResult => result !== undefined);
}
