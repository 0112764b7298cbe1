/**
 * The extraction interface as the rest of Quarry sees it: extract(html, url,
 * options) — and the other parses of untrusted input (tables, chunking,
 * links) — run in the worker pool, so parsing never blocks the event loop.
 * Every task has a deadline: one still running then is stopped (its thread
 * ended) and fails with TIMEOUT.
 */
import type { ExtractionResult, ExtractOptions } from './types.js';
import { builtWorkerPath } from '../../core/paths.js';
import { WorkerPool, type WorkerPoolStats } from '../../core/pools/worker-pool.js';
import type { ChunkOptions } from '../chunking/types.js';
import type { Extraction } from '../entities/types.js';
import type { SitemapDocument } from '../discover/sitemap-parser.js';
import type { ExtractTablesOptions, ExtractTablesResult } from '../tables/types.js';
import type { PageAnalysis, PageAnalysisOptions } from '../page-analysis/analyse-page.js';
import type { CompiledPattern, RegexMatch } from './regex-extract.js';
import type { TestPattern } from './regex-test.js';
import type { EngineParseOutcome, EngineParseTask } from '../engines/engine-parse-task.js';
import { unwrap, type ChunkTaskResult, type ParseOutcome, type ParseTask } from './worker-tasks.js';

export interface ExtractTask {
  /** The HTML, or the PDF's bytes in base64 when options.contentType is "application/pdf". */
  html: string;
  url: string;
  options?: ExtractOptions;
}

/** Default deadline of one task in the pool. */
export const DEFAULT_TASK_TIMEOUT_MS = 30_000;

export class ExtractionPool {
  private readonly pool: WorkerPool<ExtractTask | ParseTask, unknown>;
  private readonly taskTimeoutMs: number;

  constructor(options: { threads: number; maxQueue: number; taskTimeoutMs?: number }) {
    const { taskTimeoutMs = DEFAULT_TASK_TIMEOUT_MS, ...poolOptions } = options;
    this.taskTimeoutMs = taskTimeoutMs;
    this.pool = new WorkerPool({ filename: builtWorkerPath('extract'), name: 'extract', ...poolOptions });
  }

  /** HTML by default; with options.contentType "application/pdf", `html` holds the PDF's bytes in base64. */
  extract(html: string, url: string, options: ExtractOptions = {}, signal?: AbortSignal): Promise<ExtractionResult> {
    return this.pool.run({ html, url, options }, signal, { timeoutMs: this.taskTimeoutMs }) as Promise<ExtractionResult>;
  }

  /** A PDF document's text; the bytes travel to the worker as base64 (a string crosses the thread boundary in one copy). */
  extractPdf(bytes: Uint8Array, url: string, options: ExtractOptions = {}, signal?: AbortSignal): Promise<ExtractionResult> {
    return this.extract(Buffer.from(bytes).toString('base64'), url, { ...options, contentType: 'application/pdf' }, signal);
  }

  async tables(html: string, options: ExtractTablesOptions, signal?: AbortSignal): Promise<ExtractTablesResult> {
    return unwrap(await this.parse<'tables'>({ kind: 'tables', html, options }, signal));
  }

  /** Chunks by any strategy but semantic (which needs the embedding model on this thread). */
  async chunk(text: string, options: Omit<ChunkOptions, 'embed'>, signal?: AbortSignal): Promise<ChunkTaskResult> {
    return unwrap(await this.parse<'chunk'>({ kind: 'chunk', text, options }, signal));
  }

  /** Absolute http(s) link targets of an HTML page. */
  async links(html: string, url: string, signal?: AbortSignal): Promise<string[]> {
    return unwrap(await this.parse<'links'>({ kind: 'links', html, url }, signal));
  }

  /** A sitemap document, or null when the text is none. */
  async sitemap(text: string, signal?: AbortSignal): Promise<SitemapDocument | null> {
    return unwrap(await this.parse<'sitemap'>({ kind: 'sitemap', text }, signal));
  }

  /** Regular expressions over texts (user-supplied patterns: each page's matching is time-limited in the worker). */
  async regex(texts: string[], patterns: CompiledPattern[], signal?: AbortSignal): Promise<RegexMatch[]> {
    return unwrap(await this.parse<'regex'>({ kind: 'regex', texts, patterns }, signal));
  }

  /** matches[p][t]: whether user-supplied pattern p matches text t (URL filters; time-limited in the worker). */
  async regexTest(texts: string[], patterns: TestPattern[], signal?: AbortSignal): Promise<boolean[][]> {
    return unwrap(await this.parse<'regex-test'>({ kind: 'regex-test', texts, patterns }, signal));
  }

  /** A fetched page as enhanced search reads it (text blocks, and on request json_css records and links). */
  async page(html: string, url: string, options: PageAnalysisOptions, signal?: AbortSignal): Promise<PageAnalysis> {
    return unwrap(await this.parse<'page'>({ kind: 'page', html, url, options }, signal));
  }

  /** Entities and relations of a text by the offline tagger (CPU-bound in proportion to the text). */
  async entities(text: string, signal?: AbortSignal): Promise<Extraction> {
    return unwrap(await this.parse<'entities'>({ kind: 'entities', text }, signal));
  }

  /** A virtually scrolled page's final HTML with the items its snapshots hold and it lost. */
  async mergeScroll(html: string, snapshots: string[], signal?: AbortSignal): Promise<string> {
    return unwrap(await this.parse<'scroll-merge'>({ kind: 'scroll-merge', html, snapshots }, signal));
  }

  /**
   * A search engine's answer parsed by the engine's own parser (the engine service's parsing). The answer's
   * bytes move to the worker when they fill a buffer of their own (copying a 400 kB page costs the event loop
   * ~0.3 ms; moving it, nothing); the caller does not read them afterwards.
   */
  async engine(task: EngineParseTask, signal?: AbortSignal): Promise<EngineParseOutcome> {
    const { bytes } = task.response;
    const ownsBuffer = bytes.buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
    return unwrap(await this.parse<'engine'>(task, signal, ownsBuffer ? [bytes.buffer as ArrayBuffer] : undefined));
  }

  stats(): WorkerPoolStats {
    return this.pool.stats();
  }

  close(): Promise<void> {
    return this.pool.close();
  }

  private parse<K extends ParseTask['kind']>(task: ParseTask & { kind: K }, signal: AbortSignal | undefined, transfer?: ArrayBuffer[]): Promise<ParseOutcome<K>> {
    return this.pool.run(task, signal, { timeoutMs: this.taskTimeoutMs, ...(transfer ? { transfer } : {}) }) as Promise<ParseOutcome<K>>;
  }
}
