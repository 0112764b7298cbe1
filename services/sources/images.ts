/**
 * Image search across image engines (ids ending in `_images`, or any engine
 * of the "images" group) through the one search service: fanned out under
 * one deadline, merged by the normalised URL of the image itself (not of the
 * page it sits on), scored as web results are (services/web-search/merge.ts:
 * engines that agree rank higher), at most `maxResults`.
 */
import type { SafeSearch } from '../../core/engine.js';
import { AppError } from '../../core/errors.js';
import type { EngineService } from '../engines/engine-service.js';
import type { EngineReport } from '../web-search/find-pages.js';
import type { WebSearch } from '../web-search/web-search.js';

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
  return (
    IMAGE_ENGINE_PREFERENCE.find(enabled) ??
    engines.ids().find((id) => enabled(id) && isImageEngine(engines, id)) ??
    null
  );
}

export function isImageEngine(engines: EngineService, id: string): boolean {
  return (
    engines.has(id) &&
    (id.endsWith('_images') || (engines.get(id).manifest.categories as readonly string[]).includes('images'))
  );
}

/** Validates engine ids for image search: unknown ids and engines that return no images are named. */
export function assertImageEngines(engines: EngineService, ids: string[], field = 'engines'): void {
  const unknown = ids.filter((id) => !engines.has(id));
  if (unknown.length > 0) {
    throw new AppError('UNKNOWN_ENGINE', `${field}: unknown engine(s): ${unknown.join(', ')}`, {
      details: { unknown },
    });
  }
  const notImages = ids.filter((id) => !isImageEngine(engines, id));
  if (notImages.length > 0) {
    throw new AppError(
      'INVALID_INPUT',
      `${field}: not an image engine: ${notImages.join(', ')} (image engines end in _images)`,
      { details: { not_image_engines: notImages } },
    );
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

/** Fan-out, merge by the image's URL and the engine report come from the one search service (webSearch.find). */
export async function searchImages(
  webSearch: WebSearch,
  options: ImageSearchOptions,
): Promise<{ images: ImageHit[]; engines: EngineReport }> {
  const found = await webSearch.find({
    plans: options.engines.map((engine) => ({ engine, query: options.query })),
    resultsPerEngine: options.maxResults,
    language: options.language,
    safeSearch: options.safeSearch,
    byImage: true,
    deadline: options.deadline,
    signal: options.signal,
  });
  const images = found.pages.slice(0, options.maxResults).map(({ result: r }) => ({
    url: r.url,
    thumbnail_url: r.thumbnail ?? r.url,
    title: r.title,
    source_url: r.sourceUrl ?? r.url,
    width: Number.isInteger(r.width) ? r.width! : null,
    height: Number.isInteger(r.height) ? r.height! : null,
    engine: r.engines[0] ?? '',
    engines: r.engines,
  }));
  return { images, engines: found.engines };
}
