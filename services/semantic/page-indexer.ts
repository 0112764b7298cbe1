/**
 * Feeds the local page index: every page Quarry extracts successfully is
 * chunked, embedded and stored, in the background, one page at a time. The
 * queue is bounded so a burst of scraping never holds unbounded text in
 * memory; pages beyond it are counted, not indexed.
 */
import { chunkLead, type Chunker } from '../chunking/lead.js';

/** A page fetched and extracted successfully (what feeds the local page index). */
export interface PageExtractedEvent {
  url: string;
  title: string;
  text: string;
  publishedDate: string | null;
  author: string | null;
}

export type PageEvents = {
  'page.extracted': (event: PageExtractedEvent) => void;
};

/** The part of the event bus the indexer needs. */
export interface PageEventSource {
  on(event: 'page.extracted', listener: (event: PageExtractedEvent) => void): unknown;
  off(event: 'page.extracted', listener: (event: PageExtractedEvent) => void): unknown;
}
import type { Logger } from '../../core/logger.js';
import type { SemanticServices } from './semantic-services.js';

const MAX_QUEUE = 200;
/** Long pages: index their first chunks only (the lead carries most of the meaning). */
const MAX_CHUNKS_PER_PAGE = 48;
const CHUNK_TOKENS = 200;
const MIN_TEXT_CHARS = 80;
const RETENTION_INTERVAL_MS = 60 * 60 * 1000;

export interface PageIndexerStats {
  indexed: number;
  dropped: number;
  failed: number;
  queued: number;
}

export class PageIndexer {
  private readonly queue: PageExtractedEvent[] = [];
  private readonly queuedUrls = new Set<string>();
  private draining: Promise<void> | null = null;
  private readonly counts = { indexed: 0, dropped: 0, failed: 0 };
  private readonly listener = (page: PageExtractedEvent): void => this.enqueue(page);
  private retentionTimer: NodeJS.Timeout | null = null;
  private firstRetention: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    private readonly events: PageEventSource,
    private readonly semantic: SemanticServices,
    private readonly logger: Logger,
    /** Chunks a page's lead: the worker pool's chunk task in the app, so long pages do not block the event loop. */
    private readonly chunker?: Chunker,
  ) {}

  start(): void {
    this.events.on('page.extracted', this.listener);
    // Retention runs a minute after start (not during it: opening the index loads the model) and hourly.
    this.firstRetention = setTimeout(() => void this.applyRetention(), 60_000);
    this.firstRetention.unref();
    this.retentionTimer = setInterval(() => void this.applyRetention(), RETENTION_INTERVAL_MS);
    this.retentionTimer.unref();
  }

  stats(): PageIndexerStats {
    return { ...this.counts, queued: this.queue.length };
  }

  /** Resolves when everything queued so far has been written (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.draining) await this.draining;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.events.off('page.extracted', this.listener);
    if (this.retentionTimer) clearInterval(this.retentionTimer);
    if (this.firstRetention) clearTimeout(this.firstRetention);
    await this.idle();
  }

  async applyRetention(): Promise<void> {
    try {
      const index = await this.semantic.pageIndex();
      const removed = (await index?.applyRetention()) ?? 0;
      if (removed > 0) this.logger.info({ removed }, 'page index retention removed old chunks');
    } catch (error) {
      this.logger.warn({ err: error }, 'page index retention failed');
    }
  }

  private enqueue(page: PageExtractedEvent): void {
    if (this.stopped || page.text.length < MIN_TEXT_CHARS || this.queuedUrls.has(page.url)) return;
    if (this.queue.length >= MAX_QUEUE) {
      this.counts.dropped++;
      return;
    }
    this.queue.push(page);
    this.queuedUrls.add(page.url);
    this.draining ??= this.drain().finally(() => {
      this.draining = null;
    });
  }

  private async drain(): Promise<void> {
    for (let page = this.queue.shift(); page; page = this.queue.shift()) {
      this.queuedUrls.delete(page.url);
      try {
        await this.indexPage(page);
        this.counts.indexed++;
      } catch (error) {
        this.counts.failed++;
        this.logger.warn({ err: error, url: page.url }, 'could not add a page to the local index');
      }
    }
  }

  private async indexPage(page: PageExtractedEvent): Promise<void> {
    const index = await this.semantic.pageIndex();
    if (!index) return;
    const embedder = await this.semantic.embedder();
    const chunks = await chunkLead(
      page.text,
      { strategy: 'recursive', maxTokens: CHUNK_TOKENS, overlapTokens: 0 },
      MAX_CHUNKS_PER_PAGE,
      this.chunker,
    );
    if (chunks.length === 0) return;
    const vectors = await embedder.embed(chunks.map((chunk) => `${page.title}\n${chunk.text}`));
    await index.addPage({
      url: page.url,
      title: page.title,
      publishedDate: page.publishedDate,
      author: page.author,
      chunks: chunks.map((chunk, i) => ({ text: chunk.text, vector: vectors[i]! })),
    });
  }
}
