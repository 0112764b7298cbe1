/**
 * The search answer as one markdown document, for agents that read text
 * rather than JSON: a heading, a one-line summary, then one section per
 * result with its link, engines, score, snippet and (when scraped) content.
 * Engine and page text is escaped and links follow the link policy
 * (services/markdown/escape.ts).
 */
import { escapeMarkdownText, markdownLink, type LinkPolicy } from '../markdown/escape.js';
import { outboundLinkPolicy } from '../markdown/link-policy.js';

export interface MarkdownSearchResult {
  rank: number;
  title: string;
  url: string;
  snippet: string;
  engine: string;
  score: number;
  /** Every engine that found it; `engine` alone is shown when absent. */
  engines?: string[];
  published_date?: string;
  scraped_content?: {
    text: string;
    markdown?: string;
    extraction_success: boolean;
    word_count: number;
    failure_reason?: string;
  };
}

export interface MarkdownSearchAnswer {
  query: string;
  results: MarkdownSearchResult[];
  search_metadata: {
    engines_succeeded: string[];
    engines_failed: string[];
    results_returned: number;
    search_time_ms: number;
    engine_errors?: Record<string, { message: string }>;
  };
}

export interface RenderMarkdownOptions {
  /** Characters of scraped content kept per result; default 4000. Infinity keeps everything. */
  maxContentChars?: number;
  /** Which result URLs become links; default: none that the strict outbound policy refuses outright. */
  linkPolicy?: LinkPolicy;
}

export const DEFAULT_MAX_CONTENT_CHARS = 4000;
export const TRUNCATION_MARKER = '[… truncated]';

export function renderSearchMarkdown(answer: MarkdownSearchAnswer, options: RenderMarkdownOptions = {}): string {
  const maxChars = options.maxContentChars ?? DEFAULT_MAX_CONTENT_CHARS;
  const policy = options.linkPolicy ?? outboundLinkPolicy();
  const lines = [
    `# Search results: ${escapeMarkdownText(oneLine(answer.query))}`,
    '',
    summaryLine(answer.search_metadata),
    '',
  ];
  if (answer.results.length === 0) lines.push('No results.', '');
  for (const result of answer.results) lines.push(...resultSection(result, maxChars, policy));
  return `${lines.join('\n').trimEnd()}\n`;
}

function summaryLine(meta: MarkdownSearchAnswer['search_metadata']): string {
  const count = `${meta.results_returned} result${meta.results_returned === 1 ? '' : 's'}`;
  const from =
    meta.engines_succeeded.length > 0 ? `from engines ${meta.engines_succeeded.join(', ')}` : 'from no engine';
  let line = `${count} ${from}`;
  if (meta.engines_failed.length > 0) {
    const failures = meta.engines_failed.map((engine) => {
      const message = meta.engine_errors?.[engine]?.message;
      return message ? `${engine} (${oneLine(message)})` : engine;
    });
    line += `; failed: ${failures.join(', ')}`;
  }
  return `${escapeMarkdownText(line)} — ${meta.search_time_ms} ms.`;
}

function resultSection(result: MarkdownSearchResult, maxChars: number, policy: LinkPolicy): string[] {
  const title = oneLine(result.title) || result.url;
  const lines = [`## ${result.rank}. ${markdownLink(title, result.url, policy)}`, ''];
  const engines = (result.engines?.length ? result.engines : [result.engine]).join(', ');
  const date = result.published_date ? ` · published ${result.published_date}` : '';
  lines.push(`*${escapeMarkdownText(`${engines} · score ${result.score.toFixed(3)}${date}`)}*`, '');
  const snippet = escapeMarkdownText(oneLine(result.snippet));
  if (snippet) lines.push(`> ${snippet}`, '');

  const content = result.scraped_content;
  if (content?.extraction_success) {
    // Page markdown was written safely by the extractor; plain text is escaped here.
    const body = (content.markdown?.trim() ? content.markdown : escapeMarkdownText(content.text)).trim();
    if (body)
      lines.push(`### Content (${content.word_count} words)`, '', truncateContent(demoteHeadings(body), maxChars), '');
  } else if (content) {
    lines.push(
      `*Content not extracted${content.failure_reason ? `: ${escapeMarkdownText(oneLine(content.failure_reason))}` : ''}.*`,
      '',
    );
  }
  return lines;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Scraped headings start at level 4, under this document's "### Content"; fenced code is left alone. */
function demoteHeadings(markdown: string): string {
  let fence: string | null = null;
  return markdown
    .split('\n')
    .map((line) => {
      const fenceMatch = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
      if (fenceMatch) {
        const marker = fenceMatch[1]!;
        if (fence === null) fence = marker;
        else if (marker[0] === fence[0] && marker.length >= fence.length) fence = null;
        return line;
      }
      if (fence !== null) return line;
      return line.replace(
        /^(\s{0,3})(#{1,6})(?=\s|$)/,
        (_, indent: string, hashes: string) => `${indent}${'#'.repeat(Math.min(6, hashes.length + 3))}`,
      );
    })
    .join('\n');
}

/** Cuts at a line or word boundary near the limit, closes an open code fence, and says that it cut. */
function truncateContent(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  let cut = Math.max(0, Math.floor(maxChars));
  // Never split a surrogate pair.
  if (cut > 0 && /[\uD800-\uDBFF]/.test(text[cut - 1]!)) cut--;
  const head = text.slice(0, cut);
  const boundary = Math.max(head.lastIndexOf('\n'), head.lastIndexOf(' '));
  const kept = (boundary >= cut * 0.8 ? head.slice(0, boundary) : head).trimEnd();
  const fences = kept.match(/^\s{0,3}(`{3,}|~{3,})/gm) ?? [];
  const closeFence = fences.length % 2 === 1 ? `\n${fences[fences.length - 1]!.trim()}` : '';
  return `${kept}${closeFence}\n\n${TRUNCATION_MARKER} (${kept.length} of ${text.length} characters shown)`;
}
