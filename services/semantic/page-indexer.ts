/**
 * Feeds the local page index: every page Quarry extracts successfully is
 * chunked, embedded and stored in the background. Pages are written in
 * batches, one index commit for many pages: LanceDB's merge reads the table
 * once per commit, so a commit per page cost about 22 ms of CPU a page
 * (bench:crawl's index then kept up with a quarter of a crawl's pages and
 * dropped the rest) against about 0.3 ms in commits of 64. A batch is written
 * once it holds BATCH_PAGES pages, or FLUSH_MS after its first page came, and
 * at shutdown. Each accepted page is first appended to a journal
 * (index-journal.ts), so a process that stops before its batch is written
 * loses no page: the next start indexes what the journal holds. The buffer is
 * bounded so a burst never holds unbounded text in memory; pages beyond it are
 * counted, not indexed.
 */
import { chunkEach, chunkLeads, leadOf, type BatchChunker } from '../chunking/lead.js';
import type { Logger } from '../../core/logger.js';
import type { IndexedPage } from '../vectors/types.js';
import { IndexJournal, type JournalEntry } from './index-journal.js';
import type { PageEventSource, PageExtractedEvent } from './page-events.js';
import type { SemanticServices } from './semantic-services.js';

export type { PageEvents, PageEventSource, PageExtractedEvent } from './page-events.js';

/** Pages written in one go (the index's commit, the embedding calls). */
const BATCH_PAGES = 64;
/** The longest a page waits for its batch to fill. */
const FLUSH_MS = 1_000;
/** Pages that may wait in memory; more are dropped (counted). */
const MAX_BUFFERED = 1_000;
/** Characters of page leads per chunk task: a batch of long pages is cut into tasks of bounded work. */
const CHUNK_TASK_CHARS = 1_000_000;
/** Texts per embedding call. */
const EMBED_TEXTS_PER_CALL = 512;
/** A batch whose embedding or commit fails is tried once more, in the next batch, before its pages count as failed. */
const MAX_ATTEMPTS = 2;
/** Long pages: index their first chunks only (the lead carries most of the meaning). */
const MAX_CHUNKS_PER_PAGE = 48;
const CHUNK_TOKENS = 200;
const MIN_TEXT_CHARS = 80;
const RETENTION_INTERVAL_MS = 60 * 60 * 1000;

export interface PageIndexerStats {
  indexed: number;
  dropped: number;
  failed: number;
  /** Pages accepted and not yet written (waiting for their batch, or in the one being written). */
  queued: number;
}

export interface PageIndexerOptions {
  /** The journal's folder; without one, accepted pages live only in memory until written. */
  journalDir?: string;
  /** Defaults BATCH_PAGES and FLUSH_MS (tests shorten or lengthen them). */
  batchPages?: number;
  flushMs?: number;
}

interface Pending extends JournalEntry {
  attempts: number;
}

export class PageIndexer {
  /** Waiting pages by URL, oldest first; a newer version of a URL replaces the waiting one. */
  private readonly buffer = new Map<string, Pending>();
  private writing = 0;
  private draining: Promise<void> | null = null;
  private flushTimer: NodeJS.Timeout | null = null;
  private readonly counts = { indexed: 0, dropped: 0, failed: 0 };
  private readonly listener = (page: PageExtractedEvent): void => this.enqueue(page);
  private retentionTimer: NodeJS.Timeout | null = null;
  private firstRetention: NodeJS.Timeout | null = null;
  private stopped = false;
  private readonly journal: IndexJournal | null;
  private readonly batchPages: number;
  private readonly flushMs: number;

  constructor(
    private readonly events: PageEventSource,
    private readonly semantic: Pick<SemanticServices, 'pageIndex' | 'embedder'>,
    private readonly logger: Logger,
    /**
     * Chunks a batch's leads: the worker pool's chunk-each task in the app (one task for many pages), so long pages do
     * not block the event loop.
     */
    private readonly chunker: BatchChunker = chunkEach,
    options: PageIndexerOptions = {},
  ) {
    this.journal = options.journalDir ? new IndexJournal(options.journalDir, logger) : null;
    this.batchPages = options.batchPages ?? BATCH_PAGES;
    this.flushMs = options.flushMs ?? FLUSH_MS;
  }

  start(): void {
    this.events.on('page.extracted', this.listener);
    this.recover();
    // Retention runs a minute after start (not during it: opening the index loads the model) and hourly.
    this.firstRetention = setTimeout(() => void this.applyRetention(), 60_000);
    this.firstRetention.unref();
    this.retentionTimer = setInterval(() => void this.applyRetention(), RETENTION_INTERVAL_MS);
    this.retentionTimer.unref();
  }

  stats(): PageIndexerStats {
    return { ...this.counts, queued: this.buffer.size + this.writing };
  }

  /** Writes everything accepted so far now, without waiting for batches to fill; resolves once written. */
  async idle(): Promise<void> {
    while (this.buffer.size > 0 || this.draining) {
      this.drainNow();
      await this.draining;
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.events.off('page.extracted', this.listener);
    if (this.retentionTimer) clearInterval(this.retentionTimer);
    if (this.firstRetention) clearTimeout(this.firstRetention);
    await this.idle();
    this.journal?.close();
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

  /** Pages an earlier process accepted and did not write: indexed in the first batch. */
  private recover(): void {
    const entries = this.journal?.recover() ?? [];
    for (const entry of entries) this.buffer.set(entry.page.url, { ...entry, attempts: 0 });
    if (entries.length === 0) return;
    this.logger.info({ pages: this.buffer.size }, 'page index: indexing the pages an earlier run left unwritten');
    this.drainNow();
  }

  private enqueue(event: PageExtractedEvent): void {
    if (this.stopped || event.text.length < MIN_TEXT_CHARS) return;
    if (this.buffer.size + this.writing >= MAX_BUFFERED && !this.buffer.has(event.url)) {
      this.counts.dropped++;
      return;
    }
    // Only the lead is indexed; one character past it tells chunkLead the text was cut (it then drops the chunk
    // ending at the cut, as it would for the whole text). The buffer and the journal hold no more than that.
    const lead = leadOf(event.text, CHUNK_TOKENS, MAX_CHUNKS_PER_PAGE);
    const page = lead.length < event.text.length ? { ...event, text: event.text.slice(0, lead.length + 1) } : event;
    const entry: Pending = { page, acceptedAt: Date.now(), attempts: 0 };
    this.journal?.append({ page, acceptedAt: entry.acceptedAt });
    this.buffer.delete(page.url);
    this.buffer.set(page.url, entry);
    if (this.buffer.size >= this.batchPages) this.drainNow();
    else this.flushLater();
  }

  /** A partial batch is written when its time is up; the timer keeps no process alive (the journal has the pages). */
  private flushLater(): void {
    if (this.flushTimer || this.stopped) return;
    this.flushTimer = setTimeout(() => this.drainNow(), this.flushMs);
    this.flushTimer.unref();
  }

  /** Starts writing what waits, unless a batch is being written (the drain then goes on with what came meanwhile). */
  private drainNow(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    this.draining ??= this.drain().finally(() => {
      this.draining = null;
      if (this.buffer.size > 0) this.flushLater();
    });
  }

  private async drain(): Promise<void> {
    // A full batch is written at once; a partial one only when its time is up (drainNow) or at shutdown (idle).
    for (let first = true; this.buffer.size > 0 && (first || this.buffer.size >= this.batchPages); first = false) {
      const batch = [...this.buffer.values()];
      this.buffer.clear();
      const sealed = this.journal?.seal();
      this.writing = batch.length;
      try {
        const retried = await this.writeBatch(batch);
        // Segments go once nothing in them waits to be tried again (a later batch's seal covers those).
        if (sealed !== undefined && retried === 0) this.journal?.release(sealed);
      } finally {
        this.writing = 0;
      }
    }
  }

  /** Writes one batch; returns how many of its pages went back into the buffer to be tried again. */
  private async writeBatch(batch: Pending[]): Promise<number> {
    try {
      const index = await this.semantic.pageIndex();
      if (!index) return 0;
      const { pages, failures } = await this.pagesOf(batch);
      if (pages.length > 0) {
        if (index.addPages) await index.addPages(pages);
        else for (const page of pages) await index.addPage(page);
      }
      this.counts.indexed += batch.length - failures;
      return 0;
    } catch (error) {
      return this.failed(batch, error);
    }
  }

  /** The batch's pages chunked and embedded; pages whose chunking fails are counted, logged and left out. */
  private async pagesOf(batch: Pending[]): Promise<{ pages: IndexedPage[]; failures: number }> {
    const embedder = await this.semantic.embedder();
    const texts: string[][] = [];
    let failures = 0;
    for (const group of groupsOf(batch, CHUNK_TASK_CHARS)) {
      try {
        const chunked = await chunkLeads(
          group.map(({ page }) => page.text),
          { strategy: 'recursive', maxTokens: CHUNK_TOKENS, overlapTokens: 0 },
          MAX_CHUNKS_PER_PAGE,
          this.chunker,
        );
        texts.push(...chunked.map((chunks) => chunks.map((chunk) => chunk.text)));
      } catch (error) {
        failures += group.length;
        this.counts.failed += group.length;
        texts.push(...group.map(() => []));
        this.logger.warn(
          { err: error, pages: group.length, firstUrl: group[0]?.page.url },
          'could not add pages to the local index',
        );
      }
    }
    // A page without chunks is left as the index has it, as it always was.
    const kept = batch.map((entry, i) => ({ entry, texts: texts[i]! })).filter((page) => page.texts.length > 0);
    const inputs = kept.flatMap(({ entry, texts }) => texts.map((text) => `${entry.page.title}\n${text}`));
    const vectors: Float32Array[] = [];
    // Calls of a bounded size: a whole shutdown's or recovery's batch at once could overfill the model's queue.
    for (let i = 0; i < inputs.length; i += EMBED_TEXTS_PER_CALL)
      vectors.push(...(await embedder.embed(inputs.slice(i, i + EMBED_TEXTS_PER_CALL))));
    let at = 0;
    const pages = kept.map(({ entry: { page, acceptedAt }, texts }) => ({
      url: page.url,
      title: page.title,
      publishedDate: page.publishedDate,
      author: page.author,
      fetchedAt: new Date(acceptedAt),
      chunks: texts.map((text) => ({ text, vector: vectors[at++]! })),
    }));
    return { pages, failures };
  }

  /**
   * A batch whose embedding or commit failed: its pages go back into the buffer for one more try (unless a newer
   * version of the URL came meanwhile); at shutdown they stay in the journal for the next start.
   */
  private failed(batch: Pending[], error: unknown): number {
    if (this.stopped && this.journal) {
      this.logger.warn(
        { err: error, pages: batch.length },
        'page index: could not write pages at shutdown; the journal keeps them for the next start',
      );
      return batch.length;
    }
    let retried = 0;
    for (const entry of batch) {
      // A newer version of the page, come meanwhile, is written instead.
      if (this.buffer.has(entry.page.url)) continue;
      if (entry.attempts + 1 < MAX_ATTEMPTS) {
        this.buffer.set(entry.page.url, { ...entry, attempts: entry.attempts + 1 });
        retried++;
      } else this.counts.failed++;
    }
    this.logger.warn(
      { err: error, pages: batch.length, retried, firstUrl: batch[0]?.page.url },
      'could not add pages to the local index',
    );
    return retried;
  }
}

/** Consecutive runs of the batch holding at most `chars` characters of text each (a longer page is a run alone). */
function groupsOf(batch: Pending[], chars: number): Pending[][] {
  const groups: Pending[][] = [];
  let size = Infinity;
  for (const entry of batch) {
    if (size + entry.page.text.length > chars) {
      groups.push([]);
      size = 0;
    }
    groups.at(-1)!.push(entry);
    size += entry.page.text.length;
  }
  return groups;
}
