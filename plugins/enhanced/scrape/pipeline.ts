/**
 * The browser pool and the worker-pool extraction this capability needs
 * beyond services.scraper's fetch-and-extract: screenshots, PDFs and the
 * Puppeteer wait modes need the pool itself, and rendered HTML still has to
 * go through the same extraction (which also feeds the page index).
 */
import type { BrowserPool } from '../../../services/browser/browser-pool.js';
import type { PluginServices } from '../../../app/plugin-services.js';
import type { ExtractFn } from '../../../services/scrape/scraper.js';

export interface Pipeline {
  /** null when no pool could be found (then every browser request fails per URL). */
  browser: BrowserPool | null;
  extract: ExtractFn;
}

export function pipelineFrom(services: PluginServices): Pipeline {
  return { browser: services.browser, extract: services.extract };
}
