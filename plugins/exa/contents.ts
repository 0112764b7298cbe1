/**
 * Exa's "contents" for a list of pages: text (cut at maxCharacters), highlights
 * with their scores (services/ranking/highlights.ts) and a summary per page —
 * written by the fast LLM tier in one call when one is configured, otherwise
 * extractive: the page's best sentences for the query, quoted.
 */
import type { ExaServices } from './uses.js';
import { randomBytes } from 'node:crypto';
import type { CallContext } from '../../core/capability.js';
import { extractiveSummary, writtenSummaries } from '../../services/answers/summary.js';
import { findHighlights } from '../../services/ranking/highlights.js';
import type { ContentsOptions, ExaResult } from './schemas.js';
import { modelFor } from '../../services/llm/model-choice.js';

/** What a page is before its contents are chosen. */
export interface PageForContents {
  url: string;
  title: string;
  text: string;
  publishedDate: string | null;
  author: string | null;
  score: number;
}

const DEFAULT_HIGHLIGHTS = 3;

export function requestId(): string {
  return randomBytes(16).toString('hex');
}

/** The most text any option asks for: what the pipeline must keep of each page. */
export function charsWanted(options: ContentsOptions | false | null | undefined): number {
  if (!options) return 4000;
  const text = options.text;
  return typeof text === 'object' && text.maxCharacters !== undefined ? Math.max(text.maxCharacters, 4000) : 100_000;
}

/** With no option at all Exa returns text (what getContents without options means). */
export function withDefaultText(options: ContentsOptions): ContentsOptions {
  return options.text === undefined && options.highlights === undefined && options.summary === undefined
    ? { ...options, text: true }
    : options;
}

export async function withContents(
  services: ExaServices,
  pages: PageForContents[],
  query: string,
  options: ContentsOptions | false | null | undefined,
  ctx: CallContext,
): Promise<ExaResult[]> {
  // Unknown dates and authors are left out, as Exa leaves them (exa-js types them as optional strings).
  const results: ExaResult[] = pages.map((p) => ({
    id: p.url,
    url: p.url,
    title: p.title,
    ...(p.publishedDate ? { publishedDate: p.publishedDate } : {}),
    ...(p.author ? { author: p.author } : {}),
    score: p.score,
  }));
  if (!options) return results;
  const { text, highlights, summary } = options;
  if (text) {
    const max = typeof text === 'object' ? text.maxCharacters : undefined;
    pages.forEach((p, i) => (results[i]!.text = max !== undefined ? p.text.slice(0, max) : p.text));
  }
  if (highlights) {
    const embedder = await services.semantic.embedder();
    const settings = typeof highlights === 'object' ? highlights : {};
    const unit = (settings.numSentences ?? 1) > 1 ? 'passage' : 'sentence';
    for (const [i, page] of pages.entries()) {
      const found = page.text
        ? await findHighlights(
            settings.query ?? (query || page.title || page.url),
            page.text,
            settings.highlightsPerUrl ?? DEFAULT_HIGHLIGHTS,
            unit,
            embedder,
            ctx.signal,
          )
        : [];
      results[i]!.highlights = found.map((h) => h.text);
      results[i]!.highlightScores = found.map((h) => h.relevance);
    }
  }
  if (summary) {
    // Without a query (getContents), each page is summarised for its own title.
    const asked = (typeof summary === 'object' ? summary.query : undefined) ?? query;
    const summariser = modelFor(services.llm, 'page-summary');
    const written = summariser
      ? await writtenSummaries(summariser, asked || 'what each page is about', pages, {
          signal: ctx.signal,
          logger: ctx.logger,
        })
      : pages.map(() => null);
    const embedder = await services.semantic.embedder();
    for (const [i, page] of pages.entries()) {
      const about = asked || page.title || page.url;
      results[i]!.summary =
        written[i] ?? (page.text ? await extractiveSummary(about, page.text, embedder, { signal: ctx.signal }) : '');
    }
  }
  return results;
}
