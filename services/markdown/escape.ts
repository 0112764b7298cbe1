/**
 * The one way Quarry writes untrusted text and URLs into markdown. Every
 * markdown document the service emits (page markdown, scrape and search
 * answers, MCP text blocks) goes through these functions, so that:
 *
 * - text renders as text: no raw HTML (< and > become entities), no
 *   emphasis, links, headings, lists or tables made by the page's words;
 * - a link or image points only at http(s), never javascript:, data: or an
 *   address the outbound policy refuses — otherwise only its text remains;
 * - link text cannot close its link, and code cannot close its fence.
 */

/** Decides whether a URL may be linked (the outbound policy's refusesOutright, negated). */
export type LinkPolicy = (url: URL) => boolean;

/** Links to anything http(s); for callers without an outbound policy (tests, tools). */
export const anyWebLink: LinkPolicy = () => true;

const INLINE_SPECIALS = /[\\`*_[\]|~]/g;
const ENTITY_LIKE = /&(?=#?[a-zA-Z0-9]+;)/g;
/** Markers that mean something at the start of a line: ATX headings, list items, setext underlines. */
const LINE_START = /^([ \t]{0,3})(#{1,6}(?=[ \t]|$)|[-+](?=[ \t]|$)|=+[ \t]*$|-+[ \t]*$)/gm;
const ORDERED_LIST = /^([ \t]{0,3}\d{1,9})([.)])(?=[ \t]|$)/gm;

/** Text that renders literally wherever it is placed in a markdown document (several lines allowed). */
export function escapeMarkdownText(text: string): string {
  return text
    .replace(ENTITY_LIKE, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(INLINE_SPECIALS, '\\$&')
    .replace(LINE_START, '$1\\$2')
    .replace(ORDERED_LIST, '$1\\$2');
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&' };

/**
 * The text escapeMarkdownText was given: backslash escapes and the three entities it writes undone (to compare text
 * with its source).
 */
export function unescapeMarkdownText(markdown: string): string {
  return markdown.replace(/\\([!-/:-@[-`{-~])/g, '$1').replace(/&(lt|gt|amp);/g, (_, name: string) => ENTITIES[name]!);
}

/** Escaped text in which citations "[n]" stay citations (answers and reports cite their sources so). */
export function escapeCitedText(text: string): string {
  return escapeMarkdownText(text).replace(/\\\[(\d{1,3})\\\]/g, '[$1]');
}

/**
 * Text on one line, cut to at most `max` characters (an ellipsis marks the cut), escaped: page text inside a list item
 * or heading.
 */
export function inlineText(text: string, max = Infinity): string {
  const flat = oneLine(text);
  return escapeMarkdownText(flat.length > max ? `${flat.slice(0, max).trimEnd()}…` : flat);
}

/** The URL when it may be linked: absolute http(s) and accepted by the policy; null otherwise. */
export function linkableUrl(raw: string | URL, policy: LinkPolicy): URL | null {
  let url: URL;
  try {
    url = typeof raw === 'string' ? new URL(raw) : raw;
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  return policy(url) ? url : null;
}

/**
 * A link destination that ends where the URL ends. A parsed URL holds no
 * spaces or angle brackets; backslashes (an escape in markdown) are encoded,
 * and a URL with parentheses goes in angle brackets so ")" cannot end it.
 */
export function linkDestination(url: URL): string {
  const href = url.href.replace(/[<>\s\\`]/g, (char) => encodeURIComponent(char));
  return /[()]/.test(href) ? `<${href}>` : href;
}

/** [text](url) when the URL may be linked, else the text alone. */
export function markdownLink(text: string, rawUrl: string | URL, policy: LinkPolicy): string {
  const url = linkableUrl(rawUrl, policy);
  const label = escapeMarkdownText(oneLine(text)) || (url ? escapeMarkdownText(url.href) : '');
  return url ? `[${label}](${linkDestination(url)})` : label;
}

/** ![alt](url) when the URL may be linked, else nothing (an image without a source shows nothing). */
export function markdownImage(alt: string, rawUrl: string | URL, policy: LinkPolicy): string {
  const url = linkableUrl(rawUrl, policy);
  return url ? `![${escapeMarkdownText(oneLine(alt))}](${linkDestination(url)})` : '';
}

/** A reference definition line ("[n]: <url>"), or null when the URL may not be linked. */
export function referenceDefinition(label: string, rawUrl: string | URL, policy: LinkPolicy): string | null {
  const url = linkableUrl(rawUrl, policy);
  return url ? `[${label}]: ${linkDestination(url)}` : null;
}

/** A fenced code block whose fence is longer than any run of backticks inside, so the code cannot close it. */
export function fencedCode(code: string, language = ''): string {
  let longest = 0;
  for (const run of code.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${language}\n${code}\n${fence}`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
