/**
 * YouTube search result page (HTML). The results are not in the markup but in
 * the ytInitialData JSON the page embeds for its script; video entries are
 * "videoRenderer" objects anywhere in that tree.
 */
import {
  defineEngine,
  EngineAccessDeniedError,
  EngineCaptchaError,
  EngineParseError,
  EngineRateLimitedError,
  type EngineResponse,
  type EngineResult,
} from '../../core/engine.js';

const SITE = 'https://www.youtube.com';
/** The "upload date" filter of the page, as its sp parameter (EgII + period + padding). */
const UPLOAD_DATE_FILTER = { day: 'EgIIAg==', week: 'EgIIAw==', month: 'EgIIBA==', year: 'EgIIBQ==' } as const;

interface Text {
  simpleText?: string;
  runs?: Array<{ text?: string }>;
}

interface VideoRenderer {
  videoId?: string;
  title?: Text;
  descriptionSnippet?: Text;
  detailedMetadataSnippets?: Array<{ snippetText?: Text }>;
  lengthText?: Text;
  viewCountText?: Text;
  publishedTimeText?: Text;
  ownerText?: Text;
  thumbnail?: { thumbnails?: Array<{ url?: string; width?: number; height?: number }> };
}

function plain(text: Text | undefined): string {
  return (text?.simpleText ?? text?.runs?.map((run) => run.text ?? '').join('') ?? '').replace(/\s+/g, ' ').trim();
}

/** Cuts the JSON object that starts at `start` by counting braces outside strings. */
function jsonObjectAt(source: string, start: number): string | undefined {
  let depth = 0;
  let inString = false;
  for (let i = start; i < source.length; i++) {
    const char = source[i];
    if (inString) {
      if (char === '\\') i++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{') depth++;
    else if (char === '}' && --depth === 0) return source.slice(start, i + 1);
  }
  return undefined;
}

function initialData(body: string): unknown {
  const marker = /(?:var ytInitialData|window\["ytInitialData"\])\s*=\s*\{/.exec(body);
  if (!marker) throw new EngineParseError('youtube page has no ytInitialData');
  const json = jsonObjectAt(body, marker.index + marker[0].length - 1);
  try {
    return JSON.parse(json ?? '');
  } catch {
    throw new EngineParseError('youtube ytInitialData is not valid JSON');
  }
}

function collectVideos(node: unknown, found: VideoRenderer[]): VideoRenderer[] {
  if (Array.isArray(node)) {
    for (const child of node) collectVideos(child, found);
  } else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'videoRenderer') found.push(value as VideoRenderer);
      else collectVideos(value, found);
    }
  }
  return found;
}

function videoToResult(video: VideoRenderer): EngineResult | undefined {
  const title = plain(video.title);
  if (!video.videoId || !title) return undefined;
  const thumbnails = video.thumbnail?.thumbnails ?? [];
  const thumbnail = thumbnails[thumbnails.length - 1]?.url;
  const snippet = plain(video.descriptionSnippet) || plain(video.detailedMetadataSnippets?.[0]?.snippetText);
  return {
    url: `${SITE}/watch?v=${encodeURIComponent(video.videoId)}`,
    title,
    snippet,
    author: plain(video.ownerText) || undefined,
    thumbnail: thumbnail && /^https?:\/\//.test(thumbnail) ? thumbnail : undefined,
    extra: {
      videoId: video.videoId,
      // Live streams have no length.
      duration: plain(video.lengthText) || undefined,
      views: plain(video.viewCountText) || undefined,
      published: plain(video.publishedTimeText) || undefined,
    },
  };
}

function assertNotBlocked(response: EngineResponse): void {
  if (/\/sorry\//.test(response.url) || /class="g-recaptcha"/.test(response.body))
    throw new EngineCaptchaError('youtube answered with a CAPTCHA page');
  if (response.status === 429) throw new EngineRateLimitedError();
  if (/consent\.youtube\.com/.test(response.url))
    throw new EngineAccessDeniedError('youtube redirected to its cookie consent page');
  if (response.status >= 400) throw new EngineParseError(`youtube answered HTTP ${response.status}`);
}

export default defineEngine({
  buildRequest(ctx) {
    const base = ctx.settings.baseUrl.replace(/\/+$/, '');
    const params = new URLSearchParams({ search_query: ctx.query.query });
    if (ctx.query.language !== 'all') params.set('hl', ctx.query.language);
    if (ctx.query.timeRange) params.set('sp', UPLOAD_DATE_FILTER[ctx.query.timeRange]);
    return { method: 'GET', url: `${base}/results?${params}` };
  },

  parseResponse(response) {
    assertNotBlocked(response);
    return {
      results: collectVideos(initialData(response.body), [])
        .map(videoToResult)
        .filter((result) => result !== undefined),
    };
  },
});
