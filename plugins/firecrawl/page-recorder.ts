/**
 * What crawl and batch scrape jobs share: the call context of a job run, and
 * each page the reader read turned into a Document (documentOf, the same as
 * scrape answers) and kept with the job (job-pages.ts), or its error.
 */
import type { CallContext } from '../../core/capability.js';
import type { JobHandlerContext } from '../../core/plugin.js';
import type { ScrapedPage } from '../../services/scrape/scraper.js';
import type { FirecrawlServices } from './uses.js';
import { firecrawlCodeOf } from './envelope.js';
import type { FormatPlan } from './formats.js';
import type { JobPagesWriter } from './job-pages.js';
import { documentOf } from './read-pages.js';
import type { FirecrawlDocument, ScrapeOptionsInput } from './scrape-schema.js';

export function jobCallContext(services: FirecrawlServices, kind: string, job: JobHandlerContext): CallContext {
  return {
    signal: job.signal,
    progress: job.progress,
    logger: services.logger.child({ job: job.id, kind }),
    host: 'job',
    ...(job.owner ? { caller: job.owner } : {}),
  };
}

export class PageRecorder {
  constructor(
    private readonly services: FirecrawlServices,
    private readonly writer: JobPagesWriter,
    private readonly plan: FormatPlan,
    private readonly options: ScrapeOptionsInput,
    private readonly ctx: CallContext,
    /** Told of each document as it is kept (the job's webhook). */
    private readonly onDocument?: (index: number, document: FirecrawlDocument) => Promise<void>,
  ) {}

  /** The page as a Document, stored once per URL; a page that could not be read is listed among the errors. */
  async record(url: string, page: ScrapedPage): Promise<void> {
    if (this.writer.has(url)) return;
    const outcome = await documentOf(this.services, page, this.plan, [], this.ctx, this.options);
    if ('document' in outcome) {
      const index = this.writer.addDocument(url, outcome.document);
      if (index !== null) await this.onDocument?.(index, outcome.document);
      return;
    }
    if (outcome.error.code === 'ROBOTS_DISALLOWED') this.writer.addRobotsBlocked([url]);
    else this.writer.addError(url, firecrawlCodeOf(outcome.error.code), outcome.error.message);
  }

  /** A URL taken but not read (the time budget ran out, the read threw). */
  notRead(url: string, code: string, message: string): void {
    if (code === 'ROBOTS_DISALLOWED') this.writer.addRobotsBlocked([url]);
    else this.writer.addError(url, firecrawlCodeOf(code), message);
  }
}
