/** Shapes shared by every chunking strategy. */

export const CHUNK_STRATEGIES = [
  'fixed',
  'sentence',
  'paragraph',
  'recursive',
  'markdown',
  'semantic',
  'auto',
] as const;
export type ChunkStrategy = (typeof CHUNK_STRATEGIES)[number];

/** Turns texts into vectors, one per text, in order. */
export type EmbedTexts = (texts: string[]) => Promise<number[][]>;

export interface ChunkOptions {
  strategy: ChunkStrategy;
  /** Upper bound on a chunk's tokens (cl100k_base). Default 256. */
  maxTokens?: number;
  /** Tokens repeated between neighbouring chunks (fixed, recursive). Default 32, at most half of maxTokens. */
  overlapTokens?: number;
  /** Required by the semantic strategy. */
  embed?: EmbedTexts;
  /** Semantic strategy: split where the neighbour distance exceeds this percentile. Default 90. */
  breakpointPercentile?: number;
}

export interface Chunk {
  index: number;
  /** Exact substring of the input: [...input].slice(start, end).join('') === text. */
  text: string;
  /** Offsets in Unicode code points (not UTF-16 units), end exclusive. */
  start: number;
  end: number;
  tokens: number;
  /** Markdown only: titles of the enclosing headings, outermost first. */
  heading_path?: string[];
}

/** Internal: a half-open range of UTF-16 offsets into the input. */
export interface Span {
  start: number;
  end: number;
}

export interface MeasuredSpan extends Span {
  tokens: number;
}

/** Cuts a span into consecutive pieces that together cover it exactly. */
export type SpanSplitter = (text: string, span: Span) => Span[];

export interface TokenBudget {
  maxTokens: number;
  overlapTokens: number;
}
