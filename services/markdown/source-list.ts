/**
 * The one renderer for lists of sources in Quarry's markdown (answers'
 * sources, corpus sources, search hits, monitor results, evidence): each
 * item a link to an http(s) URL the outbound policy allows (else its title
 * as text), titles that cannot leave their link, page text escaped.
 */
import { escapeMarkdownText, inlineText, markdownLink, type LinkPolicy } from './escape.js';

export interface SourceItem {
  title: string | null | undefined;
  url: string;
  /** Facts shown after the link ("score 0.82"), joined by ", "; escaped like page text. */
  details?: ReadonlyArray<string | number | null | undefined | false>;
  /** Page text shown under the item (snippet, summary, passage), on one line, escaped. */
  excerpt?: string | null;
}

export interface SourceListOptions {
  policy: LinkPolicy;
  /** "[n] " (what answers cite), "n. " or "- "; default "[n] ". */
  marker?: 'citation' | 'number' | 'bullet';
  /** Characters of each excerpt kept; default 300. */
  excerptChars?: number;
  /** Items shown; the rest are counted in a last line. Default all. */
  limit?: number;
}

const MARKERS = {
  citation: (n: number) => `[${n}] `,
  number: (n: number) => `${n}. `,
  bullet: () => '- ',
} as const;

/** The list's lines (no trailing blank line). */
export function renderSourceList(items: readonly SourceItem[], options: SourceListOptions): string[] {
  const marker = MARKERS[options.marker ?? 'citation'];
  const shown = items.slice(0, options.limit ?? items.length);
  const lines: string[] = [];
  shown.forEach((item, i) => {
    const prefix = marker(i + 1);
    const details = (item.details ?? [])
      .filter((d) => d !== null && d !== undefined && d !== false && d !== '')
      .join(', ');
    lines.push(
      `${prefix}${markdownLink(item.title?.trim() || item.url, item.url, options.policy)}${details ? ` — ${escapeMarkdownText(details)}` : ''}`,
    );
    const excerpt = item.excerpt ? inlineText(item.excerpt, options.excerptChars ?? 300) : '';
    if (excerpt) lines.push(`${' '.repeat(prefix.length)}${excerpt}`);
  });
  if (items.length > shown.length) lines.push(`… and ${items.length - shown.length} more`);
  return lines;
}
