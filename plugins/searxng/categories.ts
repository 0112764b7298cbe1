/**
 * SearXNG's category names beside Quarry's: most are the same word; a few
 * differ (videos / video, map / maps, "social media" / social), and SearXNG's
 * "science" holds what Quarry files under academic as well.
 */
import type { EngineCategory } from '../../core/engine.js';

const TO_QUARRY: Record<string, EngineCategory[]> = {
  general: ['general'],
  news: ['news'],
  images: ['images'],
  videos: ['video'],
  music: ['music'],
  map: ['maps'],
  it: ['it'],
  science: ['science', 'academic'],
  files: ['files'],
  'social media': ['social'],
  shopping: ['shopping'],
};

const TO_SEARXNG: Partial<Record<EngineCategory, string>> = {
  video: 'videos',
  maps: 'map',
  social: 'social media',
  academic: 'science',
  reference: 'general',
  finance: 'general',
};

/** Quarry's categories for SearXNG's names; names neither knows are left out (SearXNG ignores them too). */
export function quarryCategories(searxng: string[]): EngineCategory[] {
  return [...new Set(searxng.flatMap((name) => TO_QUARRY[name.trim().toLowerCase()] ?? []))];
}

/** The SearXNG name of a Quarry category. */
export function searxngCategory(category: string): string {
  return TO_SEARXNG[category as EngineCategory] ?? category;
}

/** Every SearXNG category some engine of these Quarry categories serves, in SearXNG's order. */
export function searxngCategoriesOf(quarry: Iterable<string>): string[] {
  const present = new Set([...quarry].map(searxngCategory));
  return Object.keys(TO_QUARRY).filter((name) => present.has(name));
}
