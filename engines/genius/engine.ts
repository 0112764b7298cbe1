/**
 * Genius search (genius.com/api/search/multi, the JSON endpoint the website
 * uses): songs, artists and albums. The answer is a list of sections (top
 * hit, songs, lyrics, artists, albums, …); hits repeat across sections and
 * are merged by URL, in section order.
 */
import { defineEngine, EngineParseError, stripMarkup, type EngineResult } from '../../core/engine.js';
import { endpointUrl } from '../_lib/endpoint-url.js';
import { absoluteHttpUrl } from '../_lib/html-document.js';
import { asArray, asRecord, asString, parseJsonBody } from '../_lib/json-body.js';

const PER_PAGE = 5;

/** { year, month, day } → "2016-04-23" (partial dates stay partial). */
export function componentsDate(value: unknown): string | undefined {
  const parts = asRecord(value);
  const year = typeof parts?.year === 'number' ? parts.year : undefined;
  if (!year) return undefined;
  const month = typeof parts?.month === 'number' ? String(parts.month).padStart(2, '0') : undefined;
  const day = month && typeof parts?.day === 'number' ? String(parts.day).padStart(2, '0') : undefined;
  return [String(year), month, day].filter(Boolean).join('-');
}

function fromHit(type: string, item: Record<string, unknown>): EngineResult | undefined {
  const url = absoluteHttpUrl(asString(item.url));
  if (!url) return undefined;
  if (type === 'song') {
    const title = stripMarkup(asString(item.full_title) ?? asString(item.title) ?? '');
    if (!title) return undefined;
    const artist = asString(item.artist_names) ?? asString(asRecord(item.primary_artist)?.name);
    const released = asString(item.release_date_for_display);
    const result: EngineResult = {
      url,
      title,
      snippet: [artist && `Song by ${stripMarkup(artist)}`, released && `released ${released}`]
        .filter(Boolean)
        .join(' · '),
    };
    if (artist) result.author = stripMarkup(artist);
    const date = componentsDate(item.release_date_components);
    if (date) result.publishedDate = date;
    const thumbnail = absoluteHttpUrl(
      asString(item.song_art_image_thumbnail_url) ?? asString(item.header_image_thumbnail_url),
    );
    if (thumbnail) result.thumbnail = thumbnail;
    const stats = asRecord(item.stats);
    result.extra = {
      type: 'song',
      id: item.id,
      ...(typeof stats?.pageviews === 'number' ? { pageviews: stats.pageviews } : {}),
    };
    return result;
  }
  if (type === 'artist') {
    const name = stripMarkup(asString(item.name) ?? '');
    if (!name) return undefined;
    const result: EngineResult = { url, title: name, snippet: 'Artist' };
    const thumbnail = absoluteHttpUrl(asString(item.image_url));
    if (thumbnail) result.thumbnail = thumbnail;
    result.extra = { type: 'artist', id: item.id };
    return result;
  }
  if (type === 'album') {
    const title = stripMarkup(asString(item.full_title) ?? asString(item.name) ?? '');
    if (!title) return undefined;
    const artist = asString(asRecord(item.artist)?.name);
    const result: EngineResult = { url, title, snippet: artist ? `Album by ${stripMarkup(artist)}` : 'Album' };
    if (artist) result.author = stripMarkup(artist);
    const date = componentsDate(item.release_date_components);
    if (date) result.publishedDate = date;
    const thumbnail = absoluteHttpUrl(asString(item.cover_art_thumbnail_url) ?? asString(item.cover_art_url));
    if (thumbnail) result.thumbnail = thumbnail;
    result.extra = { type: 'album', id: item.id };
    return result;
  }
  return undefined;
}

export default defineEngine({
  buildRequest({ query, settings }) {
    return {
      method: 'GET',
      url: endpointUrl(settings.baseUrl, '/api/search/multi', { q: query.query, per_page: PER_PAGE }),
      headers: { accept: 'application/json' },
    };
  },

  parseResponse(response) {
    const data = asRecord(parseJsonBody(response.body, 'genius'));
    const meta = asRecord(data?.meta);
    if (typeof meta?.status === 'number' && meta.status !== 200)
      throw new EngineParseError(`genius answered status ${meta.status}: ${asString(meta.message) ?? ''}`.trim());
    const sections = asRecord(data?.response)?.sections;
    if (!Array.isArray(sections)) throw new EngineParseError('genius answered without response.sections');
    const results: EngineResult[] = [];
    const seen = new Set<string>();
    for (const section of sections.map(asRecord)) {
      for (const hit of asArray(section?.hits).map(asRecord)) {
        const type = asString(hit?.type) ?? asString(hit?.index) ?? '';
        const item = asRecord(hit?.result);
        const result = item ? fromHit(type, item) : undefined;
        if (!result || seen.has(result.url)) continue;
        seen.add(result.url);
        results.push(result);
      }
    }
    return { results };
  },
});
