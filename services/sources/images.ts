/**
 * Image search across image engines (ids ending in `_images`, or any engine
 * of the "images" group): fanned out under one deadline, merged by the
 * normalised URL of the image itself (not of the page it sits on), scored as
 * web results are (services/web-search/merge.ts: engines that agree rank
 * higher), at most `maxResults`.
 */
import type { SafeSearch } from '../../core/engine.js';
import { AppError } from '../../core/errors.js';
import type { EngineService } from '../engines/engine-service.js';
import { fanOut } from '../web-search/engine-fanout.js';
import { mergeEngineResults } from '../web-search/merge.js';
import type { EngineReport } from '../web-search/find-pages.js';

export interface ImageHit {
  url: string;
  thumbnail_url: string;
  title: string;
  /** The page the image is on. */
  source_url: string;
  width: number | null;
  height: number | null;
  /** The first engine that found it; `engines` lists all. */
  engine: string;
  engines: string[];
}

/** The default image engine: the first enabled of these (none needs a key). */
export const IMAGE_ENGINE_PREFERENCE = ['bing_images', 'duckduckgo_images', 'openverse_images', 'wikimedia_images'];

export function defaultImageEngine(engines: EngineService): string | null {
  const enabled = (id: string) => engines.has(id) && engines.disabledReason(id) === null;
  return IMAGE_ENGINE_PREFERENCE.find(enabled) ?? engines.ids().find((id) => enabled(id) && isImageEngine(engines, id)) ?? null;
}

export function isImageEngine(engines: EngineService, id: string): boolean {
  return engines.has(id) && (id.endsWith('_images') || (engines.get(id).manifest.categories as readonly string[]).includes('images'));
}

/** Validates engine ids for image search: unknown ids and engines that return no images are named. */
export function assertImageEngines(engines: EngineService, ids: string[], field = 'engines'): void {
  const unknown = ids.filter((id) => !engines.has(id));
  if (unknown.length > 0) {
    throw new AppError('UNKNOWN_ENGINE', `${field}: unknown engine(s): ${unknown.join(', ')}`, { details: { unknown } });
  }
  const notImages = ids.filter((id) => !isImageEngine(engines, id));
  if (notImages.length > 0) {
    throw new AppError('INVALID_INPUT', `${field}: not an image engine: ${notImages.join(', ')} (image engines end in _images)`, { details: { not_image_engines: notImages } });
  }
}

export interface ImageSearchOptions {
  query: string;
  engines: string[];
  maxResults: number;
  safeSearch: SafeSearch;
  language: string;
  deadline: number;
  signal: AbortSignal;
}

export async function searchImages(engines: EngineService, options: ImageSearchOptions): Promise<{ images: ImageHit[]; engines: EngineReport }> {
  const outcomes = await fanOut(engines, {
    engines: options.engines,
    query: { query: options.query, language: options.language, safeSearch: options.safeSearch },
    firstPage: 1,
    wantedPerEngine: options.maxResults,
    deadline: options.deadline,
    signal: options.signal,
  });
  if (options.signal.aborted) throw new AppError('CANCELLED', 'the image search was cancelled');
  const lists = outcomes
    .filter((o) => !o.error)
    .map((o) => ({
      engine: o.engine,
      weight: o.weight,
      // Keyed by the image itself: the page URL is kept as sourceUrl.
      results: o.results
        .filter((r) => r.imageUrl ?? r.url)
        .map((r) => ({ ...r, url: r.imageUrl ?? r.url, sourceUrl: r.sourceUrl ?? r.url })),
    }));
  const merged = mergeEngineResults(lists).slice(0, options.maxResults);
  const images = merged.map((r) => ({
    url: r.url,
    thumbnail_url: r.thumbnail ?? r.url,
    title: r.title,
    source_url: r.sourceUrl ?? r.url,
    width: Number.isInteger(r.width) ? r.width! : null,
    height: Number.isInteger(r.height) ? r.height! : null,
    engine: r.engines[0] ?? '',
    engines: r.engines,
  }));
  const used = [...new Set(outcomes.map((o) => o.engine))];
  const errors: EngineReport['errors'] = {};
  for (const outcome of outcomes) if (outcome.error) errors[outcome.engine] = outcome.error;
  return { images, engines: { used, succeeded: used.filter((e) => !errors[e]), failed: Object.keys(errors), errors } };
}
