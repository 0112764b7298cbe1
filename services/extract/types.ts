/**
 * The extraction interface: extract(html, url, options) runs in the worker
 * pool and returns the page's main content. Later work raises its quality
 * without changing this shape.
 */
/** Deepest element nesting read; deeper documents are refused (Chromium's parser stops at 512 too). */
export const MAX_MARKUP_DEPTH = 512;

export interface ExtractOptions {
  /** Collect <img> sources of the main content (absolute URLs). Default true. */
  includeImages?: boolean;
  /** Collect links of the main content (absolute URLs). Default true. */
  includeLinks?: boolean;
  /** Also produce markdown. Default true. */
  markdown?: boolean;
  /**
   * Media type of the content handed over (set by the scraper, not by users).
   * "application/pdf": the content is the PDF's bytes, which the extraction
   * worker reads with extractPdf. Default: HTML.
   */
  contentType?: 'text/html' | 'application/pdf';
  /** Also describe the main-content images (alt text, caption) and find the favicon (result.media). */
  media?: boolean;
  /**
   * The outbound policy's private-address settings: markdown links and images
   * never point at an address it refuses outright. Default: refuse every
   * non-public address. Set by the composition root, not by users.
   */
  addressPolicy?: { allowPrivateNetwork: boolean; allowHosts: string[] };
  /**
   * Also answer the page's markup as text (result.html), decoded where the page is read: for include_html. HTML only.
   */
  keepMarkup?: boolean;
  /**
   * Also answer every link target of the whole page (result.pageLinks), read from the same parse before extraction
   * rewrites it: what a crawl follows, without a second parse of the page. HTML only.
   */
  pageLinks?: boolean;
}

/**
 * A fetched page's body as it came: decoded (by `contentTypeHeader`'s charset or the page's <meta>) in the worker that
 * reads it.
 */
export interface PageBytes {
  bytes: Uint8Array;
  /** The response's Content-Type header, for the charset. */
  contentTypeHeader?: string;
}

/** What extraction reads: markup as text (a rendered page), or a fetched page's bytes (HTML or PDF). */
export type PageContent = string | PageBytes;

/**
 * A page extraction task: markup as text or a fetched body's bytes (a PDF's when options.contentType is
 * "application/pdf").
 */
export type ExtractTask = ({ html: string } | PageBytes) & { url: string; options?: ExtractOptions };

export interface PageImage {
  url: string;
  /** Alt text or caption; null when the page gives none. */
  description: string | null;
}

/** What a read page offers beyond its text (page-media.ts). */
export interface PageMedia {
  /** Main-content images (at most 5) with their descriptions. */
  images: PageImage[];
  /** A declared icon link, else /favicon.ico. */
  favicon: string | null;
}

export interface PageMetadata {
  title: string | null;
  description: string | null;
  author: string | null;
  /** ISO 8601 when a date could be read. */
  publishedDate: string | null;
  keywords: string[];
  siteName: string | null;
  language: string | null;
  canonicalUrl: string | null;
  /** Raw OpenGraph properties (og:*), lower-cased keys without the prefix. */
  openGraph: Record<string, string>;
}

/** An optional part of an extraction, dropped on its own when the page breaks it (contained.ts). */
export type ExtractionPart =
  | 'scripted_content'
  | 'json_ld'
  | 'metadata'
  | 'title'
  | 'block_signals'
  | 'markdown'
  | 'images'
  | 'links'
  | 'media';

/** A part left out of the result because reading it threw; the rest of the page is there. */
export interface ExtractionWarning {
  part: ExtractionPart;
  reason: string;
}

export interface ExtractedLink {
  url: string;
  text: string;
}

export interface ExtractionResult {
  url: string;
  title: string;
  /** Main text, paragraphs separated by blank lines. */
  text: string;
  /** Main content as markdown (links kept as references). Empty when options.markdown is false. */
  markdown: string;
  metadata: PageMetadata;
  images: string[];
  links: ExtractedLink[];
  wordCount: number;
  /** 0..1, see docs/extraction.md for how it is computed. */
  contentQualityScore: number;
  /** False for block, CAPTCHA, consent-wall and empty pages. */
  success: boolean;
  /**
   * Why success is false: "captcha", "blocked", "consent_wall" (a block page); "empty", "markup_too_deep";
   * "extraction_error" (a bug of ours).
   */
  failureReason?: string;
  /** Optional parts dropped because the page broke them (none: absent). */
  warnings?: ExtractionWarning[];
  /** With options.media: described main-content images and the favicon. */
  media?: PageMedia;
  /** With options.keepMarkup: the page's markup, decoded from its bytes by the worker that read them. */
  html?: string;
  /**
   * With options.pageLinks: the absolute http(s) targets of the page's a[href] and area[href], in page order,
   * resolved against its <base href> (the same list as the pool's links task). Absent when the page could not be
   * parsed.
   */
  pageLinks?: string[];
}
