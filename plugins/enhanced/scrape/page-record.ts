/**
 * One URL's outcome as kept internally and in the cache: everything the
 * extractor produced plus what was fetched. The answer is cut from it per
 * request options (present.ts), so a cached record serves any extract_* mix.
 */
import type { ExtractedLink, ExtractionResult, PageMetadata } from '../../../services/extract/types.js';
import type { PageErrorCode, PageFailure } from './failures.js';

export interface PageTiming {
  total_ms: number;
  /** Fetch, or render (navigation, waiting, screenshot, PDF) when rendered. */
  fetch_ms: number;
  extract_ms: number;
}

export interface PageRecord {
  url: string;
  finalUrl: string;
  status: number | null;
  rendered: boolean;
  title: string;
  text: string;
  markdown: string;
  metadata: PageMetadata | null;
  images: string[];
  links: ExtractedLink[];
  wordCount: number;
  contentQualityScore: number;
  success: boolean;
  failureReason: string | null;
  errorCode: PageErrorCode | null;
  html?: string;
  /** base64 */
  screenshot?: string;
  /** base64 */
  pdf?: string;
  timing: PageTiming;
  /** ISO time the record was fetched (kept when served from the cache). */
  fetchedAt: string;
}

export function failedRecord(url: string, failure: PageFailure, rendered: boolean, timing: PageTiming): PageRecord {
  return {
    url,
    finalUrl: url,
    status: null,
    rendered,
    title: '',
    text: '',
    markdown: '',
    metadata: null,
    images: [],
    links: [],
    wordCount: 0,
    contentQualityScore: 0,
    success: false,
    failureReason: failure.reason,
    errorCode: failure.code,
    timing,
    fetchedAt: new Date().toISOString(),
  };
}

export function extractedRecord(
  url: string,
  fetched: { finalUrl: string; status: number | null; rendered: boolean },
  extracted: ExtractionResult,
  failure: PageFailure | null,
  timing: PageTiming,
): PageRecord {
  return {
    url,
    finalUrl: fetched.finalUrl,
    status: fetched.status,
    rendered: fetched.rendered,
    title: extracted.title,
    text: extracted.text,
    markdown: extracted.markdown,
    metadata: extracted.metadata,
    images: extracted.images,
    links: extracted.links,
    wordCount: extracted.wordCount,
    contentQualityScore: extracted.contentQualityScore,
    success: failure === null,
    failureReason: failure?.reason ?? null,
    errorCode: failure?.code ?? null,
    timing,
    fetchedAt: new Date().toISOString(),
  };
}
