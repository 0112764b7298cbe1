/**
 * Everything done to one result page: content filter, markdown, extraction
 * strategy, link analysis, adaptive crawl. Each step's failure is recorded on
 * the result (status "partial" or "failed") and never fails the request.
 */
import type { EnhancedServices } from '../uses.js';
import { AppError, toAppError } from '../../../core/errors.js';
import type { PageAnalysis } from '../../../services/page-analysis/analyse-page.js';
import { adaptiveCrawl } from './adaptive.js';
import { blocksText } from '../../../services/page-analysis/blocks-text.js';
import type { TextBlock } from '../../../services/page-analysis/text-blocks.js';
import { bm25Blocks, DEFAULT_BM25_THRESHOLD } from './bm25.js';
import { cosineClusters } from './cosine.js';
import { analyseLinks } from './link-analysis.js';
import { llmExtract, llmFilter } from './llm-steps.js';
import { blocksToMarkdown } from './markdown.js';
import type { PreparedRequest } from './prepare.js';
import { DEFAULT_PRUNING_THRESHOLD, pruneBlocks } from './pruning.js';
import type { EnhancedPage } from './schemas.js';

export interface PageInput {
  url: string;
  html: string;
  /** The scraper's markdown of the main content, used when no filter is chosen. */
  mainMarkdown: string;
}

export interface PageContext {
  fetchHtml(url: string, signal?: AbortSignal): Promise<{ html: string; finalUrl: string }>;
  /**
   * The extraction worker pool: the page's HTML is read and user-supplied patterns run there, never on the event loop.
   */
  parsing: Pick<EnhancedServices['parsing'], 'regex' | 'page'>;
  /** The one crawler, for the adaptive crawl. */
  discovery: Pick<EnhancedServices['discovery'], 'crawlSite'>;
  deadline: number;
  signal?: AbortSignal;
}

type Step = 'content_filter' | 'markdown' | 'extraction' | 'link_analysis' | 'adaptive_crawl';

export async function processPage(
  prepared: PreparedRequest,
  page: PageInput,
  ctx: PageContext,
  out: EnhancedPage,
): Promise<void> {
  const { input } = prepared;
  const signal = ctx.signal;
  let succeeded = 0;
  const attempt = async (step: Step, run: () => Promise<void> | void): Promise<void> => {
    try {
      await run();
      succeeded++;
    } catch (error) {
      const appError = toAppError(error);
      out.errors.push({ step, code: appError.code, message: appError.message });
    }
  };

  // Blocks, json_css records and links come from one parse of the page in the worker pool.
  let analysis: PageAnalysis;
  try {
    analysis = await ctx.parsing.page(
      page.html,
      page.url,
      { ...(input.extraction_strategy === 'json_css' ? { css: prepared.cssSchema! } : {}), links: input.link_analysis },
      signal,
    );
  } catch (error) {
    const appError = toAppError(error);
    out.errors.push({
      step: 'content_filter',
      code: appError.code,
      message: `the page could not be read: ${appError.message}`,
    });
    out.status = 'failed';
    return;
  }
  const blocks = analysis.blocks;
  let content: TextBlock[] = blocks;
  if (input.content_filter !== 'none') {
    await attempt('content_filter', async () => {
      if (input.content_filter === 'pruning') {
        content = pruneBlocks(blocks, {
          threshold: input.pruning?.threshold ?? DEFAULT_PRUNING_THRESHOLD,
          minWords: input.pruning?.min_words ?? 0,
        });
      } else if (input.content_filter === 'bm25') {
        content = (
          await bm25Blocks(input.bm25?.query ?? input.query, blocks, input.bm25?.threshold ?? DEFAULT_BM25_THRESHOLD)
        ).kept;
      } else {
        content = await llmFilter(prepared.llm!, input.query, blocks, input.llm_filter_instruction, signal);
      }
      out.content = {
        filter: input.content_filter,
        blocks_total: blocks.length,
        blocks_kept: content.length,
        text: blocksText(content),
      };
      if (input.content_filter === 'llm') out.content.model = prepared.llm!.model;
    });
  }
  // Without a filter, markdown and the llm strategy read the main content the extractor found.
  const filtered = input.content_filter !== 'none';
  const contentMarkdown = async (): Promise<string> =>
    filtered || !page.mainMarkdown ? blocksToMarkdown(content) : page.mainMarkdown;

  if (input.markdown_generation) await attempt('markdown', async () => void (out.markdown = await contentMarkdown()));

  if (input.extraction_strategy !== 'none') {
    await attempt('extraction', async () => {
      switch (input.extraction_strategy) {
        case 'cosine': {
          const result = await cosineClusters(content, prepared.embedder!, prepared.cosine!, signal);
          out.extraction = {
            strategy: 'cosine',
            data: result.clusters,
            total_clusters: result.total_clusters,
            blocks_considered: result.blocks_considered,
          };
          break;
        }
        case 'json_css': {
          const css = analysis.css!;
          if ('error' in css) throw new AppError(css.error.code, css.error.message);
          const records = css.records;
          out.extraction = {
            strategy: 'json_css',
            data: records,
            count: records.length,
            ...(prepared.cssSchema!.name ? { name: prepared.cssSchema!.name } : {}),
          };
          break;
        }
        case 'regex': {
          const matches = await ctx.parsing.regex(
            content.map((b) => b.text),
            prepared.patterns!,
            signal,
          );
          const counts: Record<string, number> = {};
          for (const m of matches) counts[m.label] = (counts[m.label] ?? 0) + 1;
          out.extraction = { strategy: 'regex', data: matches, count: matches.length, counts };
          break;
        }
        case 'llm': {
          const data = await llmExtract(prepared.llm!, {
            query: input.query,
            url: page.url,
            content: await contentMarkdown(),
            ...(input.llm_instruction ? { instruction: input.llm_instruction } : {}),
            ...(input.llm_schema ? { schema: input.llm_schema } : {}),
            ...(signal ? { signal } : {}),
          });
          out.extraction = { strategy: 'llm', data, model: prepared.llm!.model };
          break;
        }
      }
    });
  }

  if (input.link_analysis) {
    await attempt('link_analysis', async () => {
      out.link_analysis = { ...(await analyseLinks(analysis.links!, input.query, prepared.embedder, signal)) };
    });
  }

  if (input.adaptive_crawling) {
    await attempt('adaptive_crawl', async () => {
      const report = await adaptiveCrawl(
        input.query,
        page,
        {
          discovery: ctx.discovery,
          fetchHtml: ctx.fetchHtml,
          readPage: (html, url) => ctx.parsing.page(html, url, { links: true }, signal),
          embedder: prepared.embedder,
          deadline: ctx.deadline,
          ...(signal ? { signal } : {}),
        },
        prepared.adaptive,
      );
      out.adaptive_crawl = { ...report };
    });
  }

  if (out.errors.length > 0) out.status = succeeded > 0 || out.virtual_scroll?.used ? 'partial' : 'failed';
}
