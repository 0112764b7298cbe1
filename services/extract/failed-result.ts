/**
 * The one shape of a read that kept nothing: an HTML extraction that failed, a PDF that could not be
 * read, and the reader's failed page all answer it, so a caller sees the same empty fields whichever
 * step gave up.
 */
import type { ExtractionResult, PageMetadata } from './types.js';

/** The metadata of a page nothing could be read from. */
export function emptyMetadata(): PageMetadata {
  return {
    title: null,
    description: null,
    author: null,
    publishedDate: null,
    keywords: [],
    siteName: null,
    language: null,
    canonicalUrl: null,
    openGraph: {},
  };
}

/** A failed extraction: no text, no media, the reason it failed (`failureReason`). */
export function failedExtraction(
  url: string,
  title: string,
  metadata: PageMetadata,
  failureReason: string,
): ExtractionResult {
  return {
    url,
    title,
    text: '',
    markdown: '',
    metadata,
    images: [],
    links: [],
    wordCount: 0,
    contentQualityScore: 0,
    success: false,
    failureReason,
  };
}
