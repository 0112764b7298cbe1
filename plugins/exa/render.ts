/**
 * Markdown for agents: each result as a link, its score and date, then highlights, summary or the start of its text.
 */
import { escapeMarkdownText as text, markdownLink } from '../../services/markdown/escape.js';
import type { outboundLinkPolicy } from '../../services/markdown/link-policy.js';
import type { ExaResult } from './schemas.js';

type LinkPolicy = ReturnType<typeof outboundLinkPolicy>;

const oneLine = (value: string) => value.replace(/\s+/g, ' ').trim();

export function renderResults(heading: string, results: ExaResult[], policy: LinkPolicy): string {
  const parts = [`# ${text(heading)}`];
  for (const [i, r] of results.entries()) {
    const body = r.highlights?.length
      ? r.highlights.map((h) => `> ${text(oneLine(h))}`).join('\n')
      : text(oneLine(r.summary ?? r.text?.slice(0, 500) ?? ''));
    parts.push(
      `\n## ${i + 1}. ${markdownLink(r.title || r.url, r.url, policy)}\nscore ${r.score}${r.publishedDate ? `, ${text(r.publishedDate)}` : ''}${body ? `\n\n${body}` : ''}`,
    );
  }
  if (results.length === 0) parts.push('No results.');
  return parts.join('\n');
}
