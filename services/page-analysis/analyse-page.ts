/**
 * Everything enhanced search reads from a page's HTML, in one task for the
 * extraction worker pool: its text blocks, optionally the json_css records
 * and its links. Pages are fetched from the web (up to the outbound size
 * cap), so none of this parsing runs on the event loop.
 */
import { AppError, type ErrorCode } from '../../core/errors.js';
import { collectLinks, type CollectedLinks } from './anchor-links.js';
import { extractWithCss } from './css-extract.js';
import type { CssSchema } from './css-schema.js';
import { pageBlocks, type TextBlock } from './text-blocks.js';

export interface PageAnalysisOptions {
  /** Also run this json_css schema. */
  css?: CssSchema;
  /** Also collect the page's links. */
  links?: boolean;
}

export interface PageAnalysis {
  blocks: TextBlock[];
  css?: { records: Array<Record<string, unknown>> } | { error: { code: ErrorCode; message: string } };
  links?: CollectedLinks;
}

/** Throws only when the page cannot be read at all (MarkupTooDeepError); a failing schema is reported in `css`. */
export function analysePage(html: string, pageUrl: string, options: PageAnalysisOptions = {}): PageAnalysis {
  const analysis: PageAnalysis = { blocks: pageBlocks(html) };
  if (options.css) {
    try {
      analysis.css = { records: extractWithCss(html, pageUrl, options.css) };
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      analysis.css = { error: { code: error.code, message: error.message } };
    }
  }
  if (options.links) analysis.links = collectLinks(html, pageUrl);
  return analysis;
}
