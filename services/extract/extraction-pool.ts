/**
 * The extraction interface as the rest of Quarry sees it: extract(html, url,
 * options) — and the other parses of untrusted input (tables, chunking,
 * links) — run in the worker pool, so parsing never blocks the event loop.
 * Every task has a deadline: one still running then is stopped (its thread
 * ended) and fails with TIMEOUT.
 */
import type { ExtractionResult, ExtractOptions, ExtractTask, PageContent } from './types.js';
import { movableBuffer, pageFields } from './page-content.js';
import { builtWorkerPath } from '../../core/paths.js';
import { AppError } from '../../core/errors.js';
import { WorkerPool, type WorkerPoolStats } from '../../core/pools/worker-pool.js';
import type { Chunk, ChunkOptions } from '../chunking/types.js';
import type { Extraction } from '../entities/types.js';
import type { SitemapDocument } from '../discover/sitemap-parser.js';
import type { ExtractTablesOptions, ExtractTablesResult } from '../tables/types.js';
import type { PageAnalysis, PageAnalysisOptions } from '../page-analysis/analyse-page.js';
import type { CompiledPattern, RegexMatch } from './regex-extract.js';
import type { TestPattern } from './regex-test.js';
import type { EngineParseOutcome, EngineParseTask } from '../engines/engine-parse-task.js';
import type { ReducedRobots, RobotsReader } from '../../core/http/robots-cache.js';
import type { RobotsFile } from './robots-rules.js';
import type { ContentSelection, SelectedContent } from './selected-content.js';
import type { JsonSchemaCheck, JsonSchemaVerdict } from './json-schema-check.js';
import type { LineDiff, LineDiffTask } from './line-diff.js';
import { unwrap, type ChunkTaskResult, type ParseOutcome, type ParseTask } from './worker-tasks.js';

/** Default deadline of one task in the pool. */
export const DEFAULT_TASK_TIMEOUT_MS = 30_000;
/** Default old-generation heap of one extraction thread (MB): enough for a 10 MB page. */
const DEFAULT_THREAD_HEAP_MB = 256;
/**
 * Young generation of one extraction thread (MB). V8's default sizes it by the machine's memory, and each thread's
 * heap then kept growing with every crawl (bench:crawl: 630 MB server RSS through one 1,021-page crawl, 880–930 MB
 * through three); 8 MB gave 486 MB and 608 MB at the same CPU per page.
 */
const THREAD_YOUNG_GENERATION_MB = 8;

/** Also the outbound client's RobotsReader: robots.txt is decoded, reduced and (when large) matched here. */
export class ExtractionPool implements RobotsReader {
  private readonly pool: WorkerPool<ExtractTask | ParseTask, unknown>;
  private readonly taskTimeoutMs: number;
  /**
   * Ids of the robots.txt rule sets the threads may hold parsed, so a check sends a set's text only to a thread without
   * it.
   */
  private readonly robotsIds = new WeakMap<ReducedRobots, string>();
  private robotsSets = 0;

  constructor(options: { threads: number; maxQueue: number; taskTimeoutMs?: number; heapMb?: number }) {
    const { taskTimeoutMs = DEFAULT_TASK_TIMEOUT_MS, heapMb = DEFAULT_THREAD_HEAP_MB, ...poolOptions } = options;
    this.taskTimeoutMs = taskTimeoutMs;
    this.pool = new WorkerPool({
      filename: builtWorkerPath('extract'),
      name: 'extract',
      ...poolOptions,
      resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: THREAD_YOUNG_GENERATION_MB },
      outOfMemoryError: (cause) =>
        new AppError(
          'RESPONSE_TOO_LARGE',
          `the input needs more than the extraction thread's ${heapMb} MB heap to parse (setting pools.extractHeapMb)`,
          { details: { heapMb }, cause },
        ),
    });
  }

  /**
   * A page's main content: HTML by default, a PDF with options.contentType "application/pdf". Fetched
   * bytes are decoded in the worker and move there when they fill a buffer of their own (the caller does
   * not read them afterwards), so the event loop neither decodes a page nor copies it.
   */
  extract(
    content: PageContent,
    url: string,
    options: ExtractOptions = {},
    signal?: AbortSignal,
  ): Promise<ExtractionResult> {
    const { fields, transfer } = pageFields(content);
    return this.pool.run({ ...fields, url, options }, signal, {
      timeoutMs: this.taskTimeoutMs,
      ...(transfer ? { transfer } : {}),
    }) as Promise<ExtractionResult>;
  }

  async tables(html: string, options: ExtractTablesOptions, signal?: AbortSignal): Promise<ExtractTablesResult> {
    return unwrap(await this.parse<'tables'>({ kind: 'tables', html, options }, signal));
  }

  /** Chunks by any strategy but semantic (which needs the embedding model on this thread). */
  async chunk(text: string, options: Omit<ChunkOptions, 'embed'>, signal?: AbortSignal): Promise<ChunkTaskResult> {
    return unwrap(await this.parse<'chunk'>({ kind: 'chunk', text, options }, signal));
  }

  /** chunk's chunks for each of many texts, in one task. */
  async chunkEach(texts: string[], options: Omit<ChunkOptions, 'embed'>, signal?: AbortSignal): Promise<Chunk[][]> {
    return unwrap(await this.parse<'chunk-each'>({ kind: 'chunk-each', texts, options }, signal));
  }

  /** Absolute http(s) link targets of an HTML page. */
  async links(page: PageContent, url: string, signal?: AbortSignal): Promise<string[]> {
    const { fields, transfer } = pageFields(page);
    return unwrap(await this.parse<'links'>({ kind: 'links', ...fields, url }, signal, transfer));
  }

  /** A sitemap document, or null when the text is none; bytes are decoded in the worker. */
  async sitemap(sitemap: PageContent, signal?: AbortSignal): Promise<SitemapDocument | null> {
    const { fields, transfer } = pageFields(sitemap);
    return unwrap(await this.parse<'sitemap'>({ kind: 'sitemap', ...fields }, signal, transfer));
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

  /** A page's content as a scrape's includeTags/excludeTags/onlyMainContent select it (markup and markdown). */
  async selectedContent(
    html: string,
    url: string,
    selection: ContentSelection,
    signal?: AbortSignal,
  ): Promise<SelectedContent> {
    return unwrap(await this.parse<'selected-content'>({ kind: 'selected-content', html, url, selection }, signal));
  }

  /**
   * Whether a caller's JSON Schema compiles and, given a value, whether the value matches it: a schema too large, not
   * a schema, or too slow to compile or check (a backtracking `pattern`) is an INVALID_INPUT naming check.field.
   */
  async jsonSchema(check: JsonSchemaCheck, signal?: AbortSignal): Promise<JsonSchemaVerdict> {
    return unwrap(await this.parse<'json-schema'>({ kind: 'json-schema', ...check }, signal));
  }

  /** A unified line diff of two texts, or null when the edit is too large to work out within its bounds. */
  async lineDiff(task: LineDiffTask, signal?: AbortSignal): Promise<LineDiff | null> {
    return unwrap(await this.parse<'line-diff'>({ kind: 'line-diff', ...task }, signal));
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
    const transfer = movableBuffer(task.response.bytes);
    return unwrap(await this.parse<'engine'>(task, signal, transfer ? [transfer] : undefined));
  }

  /** The rules of a fetched robots.txt that agent obeys, and its sitemaps; its bytes are decoded in the worker. */
  async robotsRules(
    bytes: Uint8Array,
    contentType: string | undefined,
    agent: string,
    signal?: AbortSignal,
  ): Promise<RobotsFile> {
    const { fields, transfer } = pageFields(
      contentType === undefined ? { bytes } : { bytes, contentTypeHeader: contentType },
    );
    return unwrap(await this.parse<'robots'>({ kind: 'robots', ...fields, agent }, signal, transfer));
  }

  /**
   * Which of urls reduced robots.txt rules (from robotsRules) let us fetch, in one task: asked by the set's id first,
   * with its text if the thread lacks it.
   */
  async robotsAllowAll(rules: ReducedRobots, urls: string[], signal?: AbortSignal): Promise<boolean[]> {
    let id = this.robotsIds.get(rules);
    if (id === undefined) this.robotsIds.set(rules, (id = String(++this.robotsSets)));
    const known = unwrap(await this.parse<'robots-check'>({ kind: 'robots-check', id, urls }, signal));
    return (
      known ??
      unwrap(await this.parse<'robots-check'>({ kind: 'robots-check', id, rules: rules.text, urls }, signal)) ??
      urls.map(() => true)
    );
  }

  stats(): WorkerPoolStats {
    return this.pool.stats();
  }

  close(): Promise<void> {
    return this.pool.close();
  }

  private parse<K extends ParseTask['kind']>(
    task: ParseTask & { kind: K },
    signal: AbortSignal | undefined,
    transfer?: ArrayBuffer[],
  ): Promise<ParseOutcome<K>> {
    return this.pool.run(task, signal, { timeoutMs: this.taskTimeoutMs, ...(transfer ? { transfer } : {}) }) as Promise<
      ParseOutcome<K>
    >;
  }
}
