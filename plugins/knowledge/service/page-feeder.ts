/**
 * Fills the graph from what Quarry already reads (knowledge.feedFromPages):
 * every page extracted for search, research or scraping is queued and its
 * lead merged into the graph in the background, one page at a time. The
 * queue is bounded; pages beyond it are counted, not extracted.
 */
import type { Logger } from '../../../core/logger.js';
import type { PageEventSource, PageExtractedEvent } from '../../../services/semantic/page-indexer.js';
import type { KnowledgeService } from './knowledge-service.js';

export interface PageFeederStats {
  extracted: number;
  dropped: number;
  failed: number;
  queued: number;
}

const MIN_TEXT_CHARS = 200;

export class PageFeeder {
  private readonly queue: PageExtractedEvent[] = [];
  private readonly counts = { extracted: 0, dropped: 0, failed: 0 };
  private draining: Promise<void> | null = null;
  private readonly controller = new AbortController();
  private readonly listener = (page: PageExtractedEvent): void => this.enqueue(page);

  constructor(
    private readonly events: PageEventSource,
    private readonly knowledge: KnowledgeService,
    private readonly options: { maxQueue: number; maxChars: number },
    private readonly logger: Logger,
  ) {}

  start(): void {
    this.events.on('page.extracted', this.listener);
  }

  stats(): PageFeederStats {
    return { ...this.counts, queued: this.queue.length };
  }

  enqueue(page: PageExtractedEvent): void {
    if (this.controller.signal.aborted || page.text.length < MIN_TEXT_CHARS) return;
    if (this.queue.length >= this.options.maxQueue) {
      this.counts.dropped += 1;
      return;
    }
    this.queue.push(page);
    this.draining ??= this.drain().finally(() => {
      this.draining = null;
    });
  }

  /** Resolves when the queue is empty (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.draining) await this.draining;
  }

  private async drain(): Promise<void> {
    for (let page = this.queue.shift(); page; page = this.queue.shift()) {
      try {
        await this.knowledge.extract(
          {
            text: page.text.slice(0, this.options.maxChars),
            source: { url: page.url, title: page.title, publishedDate: page.publishedDate },
          },
          this.controller.signal,
        );
        this.counts.extracted += 1;
      } catch (error) {
        if (this.controller.signal.aborted) return;
        this.counts.failed += 1;
        this.logger.warn({ err: error, url: page.url }, 'feeding the knowledge graph from a page failed');
      }
    }
  }

  async stop(): Promise<void> {
    this.events.off('page.extracted', this.listener);
    this.queue.length = 0;
    this.controller.abort();
    await this.draining?.catch(() => undefined);
  }
}
