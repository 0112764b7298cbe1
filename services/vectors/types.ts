/**
 * The local index of every page Quarry has fetched and extracted: one row per
 * text chunk, with the page's metadata and the chunk's embedding.
 */

export interface IndexedPage {
  url: string;
  title: string;
  /** ISO 8601 date or date-time, when the page states one. */
  publishedDate?: string | null;
  author?: string | null;
  chunks: Array<{ text: string; vector: Float32Array }>;
  /** When the page was fetched; default now. Retention ages pages by this. */
  fetchedAt?: Date;
}

export interface PageIndexQuery {
  /** The query embedding (vector search). */
  vector?: Float32Array;
  /** The query text (full-text search); with vector too, the search is hybrid. */
  text?: string;
  /** Result rows (chunks) wanted, best first; default 10. */
  limit?: number;
  /** Only these domains (a domain also matches its subdomains). */
  includeDomains?: string[];
  excludeDomains?: string[];
  /** Inclusive bounds on the page's published date (ISO dates). */
  publishedAfter?: string;
  publishedBefore?: string;
}

export interface PageIndexHit {
  url: string;
  title: string;
  domain: string;
  text: string;
  chunkIndex: number;
  publishedDate: string | null;
  author: string | null;
  /** Higher is better, in [0, 1]: cosine similarity for vector hits, fused for hybrid. */
  score: number;
}

export interface PurgeRequest {
  /** Pages fetched before this instant. */
  fetchedBefore?: Date;
  domain?: string;
  url?: string;
  all?: boolean;
}

export interface PageIndexStats {
  chunks: number;
  pages: number;
  dimensions: number;
  path: string;
  /** Bytes of data and index files in the current version. */
  bytes?: number;
  /** Type of the ANN index on the vectors, or null while search is exact (flat). */
  vectorIndex?: string | null;
}

export interface PageIndexOptimizeReport {
  ms: number;
  chunks: number;
  vectorIndex: string | null;
  /** ms per step: ftsIndex, urlIndex, vectorIndex (when built by this call), optimize. */
  steps?: Record<string, number>;
}

export interface PageIndex {
  /** Replaces any earlier chunks of the same URL; durable once the promise resolves. */
  addPage(page: IndexedPage): Promise<void>;
  /** addPage for many pages in one commit per few hundred pages (bulk loads, benchmarks). */
  addPages?(pages: IndexedPage[]): Promise<void>;
  search(query: PageIndexQuery): Promise<PageIndexHit[]>;
  /** Removes matching pages; returns how many chunks went. */
  purge(request: PurgeRequest): Promise<number>;
  /** Applies the configured retention (age and size bounds); returns chunks removed. */
  applyRetention(): Promise<number>;
  stats(): Promise<PageIndexStats>;
  /** Builds missing indexes and compacts now, instead of on the next automatic run. */
  optimize?(): Promise<PageIndexOptimizeReport>;
  close(): Promise<void>;
}
