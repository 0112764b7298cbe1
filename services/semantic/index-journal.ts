/**
 * The page indexer's journal: each page accepted for the local index is appended here, one JSON line, before it waits
 * in the indexer's buffer, and a segment file is removed only once every page in it is in the index. A process that
 * stops with pages still buffered (SIGKILL, a crash, a failed write at shutdown) leaves its segments behind, and the
 * next start reads them back and indexes those pages: no page the indexer accepted is lost with the process.
 *
 * Appends are synchronous writes: once the page.extracted event has been heard, the line is in the kernel's page
 * cache, before the read that extracted the page answers, so a killed process loses nothing it accepted. There is no
 * fsync per page: a power cut may lose the last moments' lines, as it may the job store's.
 */
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../../core/logger.js';
import type { PageExtractedEvent } from './page-events.js';

/** A page as the indexer accepted it, and when (its fetch time in the index, also after a restart). */
export interface JournalEntry {
  page: PageExtractedEvent;
  acceptedAt: number;
}

const SEGMENT = /^(\d+)\.jsonl$/;

export class IndexJournal {
  private fd: number | null = null;
  /** The segment appends go to; those below it are sealed (their pages are being or waiting to be written). */
  private current = 0;
  private readonly segments = new Set<number>();
  private appendFailed = false;

  constructor(
    private readonly dir: string,
    private readonly logger: Logger,
  ) {}

  /**
   * What an earlier process left unwritten, oldest first (a later line for a URL is its newer version). Its segments
   * stay until released; new appends go to a fresh one. A line cut short by a crash, or that is not a page, is skipped.
   */
  recover(): JournalEntry[] {
    mkdirSync(this.dir, { recursive: true });
    const ids = readdirSync(this.dir)
      .map((name) => SEGMENT.exec(name)?.[1])
      .filter((id): id is string => id !== undefined)
      .map(Number)
      .sort((a, b) => a - b);
    const entries: JournalEntry[] = [];
    let unreadable = 0;
    for (const id of ids) {
      this.segments.add(id);
      for (const line of readFileSync(this.path(id), 'utf8').split('\n')) {
        if (!line) continue;
        const entry = entryOf(line);
        if (entry) entries.push(entry);
        else unreadable++;
      }
    }
    this.current = (ids.at(-1) ?? -1) + 1;
    if (unreadable > 0)
      this.logger.warn({ unreadable }, 'page index journal: lines cut short by a crash, or not a page, skipped');
    return entries;
  }

  /** Appends one accepted page. A failed write (disk full) is logged once; the page is still indexed from memory. */
  append(entry: JournalEntry): void {
    try {
      if (this.fd === null) {
        this.fd = openSync(this.path(this.current), 'a');
        this.segments.add(this.current);
      }
      writeSync(this.fd, `${JSON.stringify(entry)}\n`);
      this.appendFailed = false;
    } catch (error) {
      if (!this.appendFailed)
        this.logger.warn({ err: error }, 'page index journal: could not append; pages are indexed but not journaled');
      this.appendFailed = true;
    }
  }

  /** Ends the current segment (later appends start another) and returns its id: what release takes once written. */
  seal(): number {
    this.closeSegment();
    return this.current++;
  }

  /** Removes every segment up to and including `upTo`: all their pages are in the index. */
  release(upTo: number): void {
    for (const id of this.segments) {
      if (id > upTo) continue;
      try {
        unlinkSync(this.path(id));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
          this.logger.warn({ err: error, segment: id }, 'page index journal: could not remove a written segment');
      }
      this.segments.delete(id);
    }
  }

  close(): void {
    this.closeSegment();
  }

  private closeSegment(): void {
    if (this.fd === null) return;
    closeSync(this.fd);
    this.fd = null;
  }

  private path(id: number): string {
    return join(this.dir, `${id}.jsonl`);
  }
}

/** A journal line as an entry, or null when it is not one (cut short by a crash, or written by another version). */
function entryOf(line: string): JournalEntry | null {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return null;
  }
  const { page, acceptedAt } = (value ?? {}) as Partial<JournalEntry>;
  const text = (field: unknown) => typeof field === 'string';
  if (!page || !text(page.url) || !text(page.title) || !text(page.text) || typeof acceptedAt !== 'number') return null;
  return {
    page: {
      url: page.url,
      title: page.title,
      text: page.text,
      publishedDate: text(page.publishedDate) ? page.publishedDate : null,
      author: text(page.author) ? page.author : null,
    },
    acceptedAt,
  };
}
