/**
 * Vimeo's search page (vimeo.com/search?q=), which embeds its results as a
 * JavaScript object literal (`var data = {...};`) holding filtered.data[],
 * each entry { type, <type>: { uri, name, link, duration, created_time,
 * pictures.sizes[], user.name } }.
 */
import {
  defineEngine,
  EngineCaptchaError,
  EngineParseError,
  stripMarkup,
  type EngineResult,
} from '../../core/engine.js';
import { endpointUrl } from '../_lib/endpoint-url.js';
import { absoluteHttpUrl } from '../_lib/html-document.js';
import { asArray, asRecord, asString } from '../_lib/json-body.js';
import { isoDateOrUnixSeconds } from '../_lib/dates.js';
import { formatDuration } from '../_video/duration.js';

/** The balanced {...} that starts at `start`, strings and escapes respected. */
export function balancedObject(text: string, start: number): string | undefined {
  let depth = 0;
  let inString = false;
  for (let index = start; index < text.length; index++) {
    const char = text[index];
    if (inString) {
      if (char === '\\') index++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{') depth++;
    else if (char === '}' && --depth === 0) return text.slice(start, index + 1);
  }
  return undefined;
}

/** The object assigned by `var data = {...}` in the page, or undefined. */
export function embeddedData(html: string): Record<string, unknown> | undefined {
  const match = /var\s+data\s*=\s*\{/.exec(html);
  if (!match) return undefined;
  const literal = balancedObject(html, match.index + match[0].length - 1);
  if (!literal) throw new EngineParseError('vimeo page with an unterminated data object');
  try {
    return asRecord(JSON.parse(literal));
  } catch (error) {
    throw new EngineParseError(`vimeo page with malformed data: ${(error as Error).message}`);
  }
}

function toResult(entry: unknown, baseUrl: string): EngineResult | undefined {
  const wrapper = asRecord(entry);
  const type = asString(wrapper?.type);
  const video = asRecord(type ? wrapper?.[type] : undefined);
  if (!video || (type !== 'clip' && type !== 'video')) return undefined;
  const id = asString(video.uri)?.split('/').pop();
  const url = absoluteHttpUrl(asString(video.link)) ?? (id ? `${baseUrl.replace(/\/+$/, '')}/${id}` : undefined);
  const title = stripMarkup(asString(video.name) ?? '');
  if (!url || !title) return undefined;
  const result: EngineResult = { url, title, snippet: stripMarkup(asString(video.description) ?? '') };
  const published = isoDateOrUnixSeconds(video.created_time);
  if (published) result.publishedDate = published;
  const author = asString(asRecord(video.user)?.name);
  if (author) result.author = author;
  // sizes run from smallest to largest; the largest is the best thumbnail.
  const sizes = asArray(asRecord(video.pictures)?.sizes).map(asRecord);
  const thumbnail = sizes
    .map((size) => absoluteHttpUrl(asString(size?.link)))
    .filter(Boolean)
    .pop();
  if (thumbnail) result.thumbnail = thumbnail;
  const duration = formatDuration(video.duration);
  if (duration) result.extra = { duration, durationSeconds: video.duration };
  return result;
}

export default defineEngine({
  buildRequest({ query, settings }) {
    const path = query.page > 1 ? `/search/page:${query.page}` : '/search';
    return { method: 'GET', url: endpointUrl(settings.baseUrl, path, { q: query.query }) };
  },

  parseResponse(response, { settings }) {
    const html = response.body;
    if (html.trim() === '') throw new EngineParseError('vimeo answered with an empty page');
    const data = embeddedData(html);
    if (!data) {
      if (/captcha|unusual traffic|are you a robot|cf-challenge|challenge-platform/i.test(html))
        throw new EngineCaptchaError('vimeo answered with a challenge page');
      throw new EngineParseError('vimeo page without its data object');
    }
    const filtered = asRecord(data.filtered);
    return {
      results: asArray(filtered?.data)
        .map((entry) => toResult(entry, settings.baseUrl))
        .filter((result): result is EngineResult => result !== undefined),
    };
  },
});
