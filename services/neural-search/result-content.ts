/** How much of each page a neural or similar-page result carries, and how a cut text ends. */

export interface ContentOptions {
  /** Characters of each page a result carries (callers that return whole pages ask for more). */
  contentChars?: number;
  /** Ends a cut text: default "…"; '' for callers that cut again themselves. */
  cutMark?: string;
}

/** The result's content: the page's text up to the caller's length (or the search's own default), marked when cut. */
export function resultContent(content: string, options: ContentOptions, defaultChars: number): string {
  const chars = options.contentChars ?? defaultChars;
  return content.length > chars ? `${content.slice(0, chars)}${options.cutMark ?? '…'}` : content;
}
