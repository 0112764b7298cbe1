/**
 * POST /api/v1/enhanced/scrape (MCP enhanced_scrape): 1–50 URLs read by the
 * page reader (services/scrape: fetch or render, robots.txt first, page
 * cache, failure codes), optionally screenshotted / printed to PDF. Per-URL
 * failures stay inside the answer. See docs/scrape.md.
 */
import type { EnhancedServices } from './uses.js';
import { defineCapability } from '../../core/capability.js';
import { outboundLinkPolicy } from '../../services/markdown/link-policy.js';
import { renderScrapeMarkdown } from './scrape/present.js';
import { runScrape } from './scrape/run-scrape.js';
import { scrapeInputSchema, scrapeOutputSchema } from './scrape/schema.js';

export function scrapeCapability(services: EnhancedServices) {
  const linkPolicy = outboundLinkPolicy(services.config.outbound);
  return defineCapability({
    id: 'enhanced.scrape',
    title: 'Scrape pages',
    description:
      "Fetch 1–50 URLs and return each page's main text (or markdown), metadata, images and links. Options: " +
      'javascript_rendering (headless Chromium), screenshot (PNG) and pdf (base64), include_html, wait_until ' +
      '(load, domcontentloaded, networkidle0, networkidle2), cache_mode. A page that cannot be scraped ' +
      '(unreachable, refused, robots.txt, CAPTCHA, timeout, HTTP error) is reported in its entry with ' +
      'extraction_success false and an error_code; the request itself still succeeds.',
    input: scrapeInputSchema,
    output: scrapeOutputSchema,
    http: { method: 'POST', path: '/api/v1/enhanced/scrape' },
    mcpTool: 'enhanced_scrape',
    readOnly: true,
    toMarkdown: (out) => out.markdown ?? renderScrapeMarkdown(out, linkPolicy),
    handler: (input, ctx) => runScrape(services.scraper, linkPolicy, input, ctx),
  });
}
