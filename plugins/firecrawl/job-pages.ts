/**
 * The documents of a crawl or batch scrape, kept with its job in the durable
 * record store (SQLite, or Redis shared by every instance) as the job reads
 * them, so a status read from any instance pages through them while the job
 * still runs: document n under its own key, then a state record (how many are
 * stored, the URLs taken, the errors). A document is written before the count
 * that covers it, so a reader never meets a count without its documents.
 *
 * One writer per job (the run that holds it); a run after a crash or
 * shutdown continues the same list and skips URLs already stored, so each
 * page appears once across the status pages.
 */
import type { Keyv } from 'keyv';
import type { FirecrawlDocument } from './scrape-schema.js';

export interface PageError {
  id: string;
  timestamp: string;
  url: string;
  code: string;
  error: string;
}

export interface JobPagesState {
  /** Documents stored, numbered from 0. */
  stored: number;
  /** URLs the job has taken so far (crawl: found and kept by the filters; batch: asked for). */
  total: number;
  errors: PageError[];
  robotsBlocked: string[];
}

interface StoredDocument {
  url: string;
  document: FirecrawlDocument;
}

/**
 * Errors and robots-blocked URLs kept per job: enough to say what went wrong, bounded for a site that refuses
 * everything.
 */
const MAX_LISTED = 1000;
const EMPTY: JobPagesState = { stored: 0, total: 0, errors: [], robotsBlocked: [] };

const stateKey = (jobId: string): string => `firecrawl:pages:${jobId}:state`;
const documentKey = (jobId: string, index: number): string => `firecrawl:pages:${jobId}:${index}`;

export class JobPages {
  constructor(
    private readonly records: Keyv,
    /** How long what a job stored stays readable after its last write. */
    private readonly ttlMs: number,
  ) {}

  async state(jobId: string): Promise<JobPagesState> {
    return ((await this.records.get(stateKey(jobId))) as JobPagesState | undefined) ?? EMPTY;
  }

  /** Documents skip … skip+count-1 (fewer when fewer are stored), in the order they were stored. */
  async documents(jobId: string, skip: number, count: number): Promise<FirecrawlDocument[]> {
    const keys = Array.from({ length: Math.max(0, count) }, (_, i) => documentKey(jobId, skip + i));
    if (keys.length === 0) return [];
    const found = (await this.records.getMany(keys)) as Array<StoredDocument | undefined>;
    return found.flatMap((entry) => (entry ? [entry.document] : []));
  }

  /** The writer of one run of the job, continuing what earlier runs stored. */
  async writer(jobId: string): Promise<JobPagesWriter> {
    const state = structuredClone(await this.state(jobId));
    const earlier = await this.documentsWithUrls(jobId, state.stored);
    return new JobPagesWriter(this.records, this.ttlMs, jobId, state, new Set(earlier));
  }

  private async documentsWithUrls(jobId: string, stored: number): Promise<string[]> {
    if (stored === 0) return [];
    const keys = Array.from({ length: stored }, (_, i) => documentKey(jobId, i));
    const found = (await this.records.getMany(keys)) as Array<StoredDocument | undefined>;
    return found.flatMap((entry) => (entry ? [entry.url] : []));
  }
}

/**
 * Appends a job's documents and errors; writes run one after another, in the order asked. The documents added while
 * a write runs go in the next one together, their state record once after them: a crawl reading faster than its
 * records commit writes in batches rather than falling behind.
 */
export class JobPagesWriter {
  private chain: Promise<void> = Promise.resolve();
  private failure: unknown = null;
  /** Numbers handed out so far: writes run in order, so document n is stored before n+1. */
  private assigned: number;
  /** Documents numbered and not yet written, in number order. */
  private readonly unwritten: Array<{ index: number; stored: StoredDocument }> = [];

  constructor(
    private readonly records: Keyv,
    private readonly ttlMs: number,
    private readonly jobId: string,
    private readonly current: JobPagesState,
    private readonly storedUrls: Set<string>,
  ) {
    this.assigned = current.stored;
  }

  get stored(): number {
    return this.current.stored;
  }

  /** Whether an earlier run stored this URL's document already. */
  has(url: string): boolean {
    return this.storedUrls.has(url);
  }

  /** Stores the document; answers its number, or null when the URL's is stored already (a URL is stored once). */
  addDocument(url: string, document: FirecrawlDocument): number | null {
    if (this.storedUrls.has(url)) return null;
    this.storedUrls.add(url);
    const index = this.assigned++;
    this.unwritten.push({ index, stored: { url, document } });
    // Documents added while earlier writes run are written together, with one state record after them.
    if (this.unwritten.length === 1) this.enqueue(() => this.writeDocuments());
    return index;
  }

  private async writeDocuments(): Promise<void> {
    const batch = this.unwritten.splice(0);
    if (batch.length === 0) return;
    await Promise.all(
      batch.map(({ index, stored }) => this.records.set(documentKey(this.jobId, index), stored, this.ttlMs)),
    );
    this.current.stored = batch[batch.length - 1]!.index + 1;
    await this.saveState();
  }

  addError(url: string, code: string, message: string): void {
    this.enqueue(async () => {
      // A run after a crash meets the same failures again: one entry per URL.
      if (this.current.errors.length >= MAX_LISTED || this.current.errors.some((e) => e.url === url)) return;
      const id = `${this.jobId}-${this.current.errors.length}`;
      this.current.errors.push({ id, timestamp: new Date().toISOString(), url, code, error: message });
      await this.saveState();
    });
  }

  addRobotsBlocked(urls: string[]): void {
    if (urls.length === 0) return;
    this.enqueue(async () => {
      const known = new Set(this.current.robotsBlocked);
      for (const url of urls) if (!known.has(url) && known.size < MAX_LISTED) known.add(url);
      if (known.size === this.current.robotsBlocked.length) return;
      this.current.robotsBlocked = [...known];
      await this.saveState();
    });
  }

  setTotal(total: number): void {
    this.enqueue(async () => {
      if (total <= this.current.total) return;
      this.current.total = total;
      await this.saveState();
    });
  }

  /** Waits for every write asked so far; throws the first that failed. */
  async flush(): Promise<JobPagesState> {
    await this.chain;
    if (this.failure) throw this.failure;
    return { ...this.current };
  }

  private enqueue(write: () => Promise<void>): void {
    this.chain = this.chain.then(async () => {
      if (this.failure) return;
      try {
        await write();
      } catch (error) {
        this.failure = error;
      }
    });
  }

  private saveState(): Promise<boolean> {
    return this.records.set(stateKey(this.jobId), this.current, this.ttlMs);
  }
}
