/** The enhanced answer as markdown for agents: the search summary, then what each strategy found per result. */
import { escapeMarkdownText, fencedCode, markdownLink, type LinkPolicy } from '../../../services/markdown/escape.js';
import { renderSearchMarkdown } from '../../../services/web-search/render-markdown.js';
import type { EnhancedAnswer, EnhancedResult } from './schemas.js';

const MAX_SECTION_CHARS = 3000;

function clip(text: string): string {
  return text.length > MAX_SECTION_CHARS ? `${text.slice(0, MAX_SECTION_CHARS)}…` : text;
}

function resultSection(result: EnhancedResult, policy: LinkPolicy): string {
  const e = result.enhanced;
  if (!e) return '';
  const text = escapeMarkdownText;
  const lines = [`## ${result.rank}. ${text(result.title)} — enhanced (${e.status})`, ''];
  for (const error of e.errors) lines.push(`- ${text(`${error.step} failed: ${error.code} ${error.message}`)}`);
  if (e.virtual_scroll)
    lines.push(
      `- virtual scrolling: ${text(e.virtual_scroll.used ? 'used' : (e.virtual_scroll.reason ?? 'not used'))}`,
    );
  if (e.content)
    lines.push(`- ${text(e.content.filter)} filter kept ${e.content.blocks_kept} of ${e.content.blocks_total} blocks`);
  // Markdown from the page pipeline is written with the same escaping; cutting it cannot open a link or a tag.
  if (e.markdown) lines.push('', clip(e.markdown), '');
  if (e.extraction)
    lines.push(
      '',
      `### Extraction (${text(e.extraction.strategy)})`,
      '',
      fencedCode(clip(JSON.stringify(e.extraction.data, null, 2)), 'json'),
      '',
    );
  if (e.link_analysis) {
    const links = (
      e.link_analysis.links as Array<{ url: string; text: string; type: string; relevance: number }>
    ).slice(0, 10);
    lines.push(
      '',
      `### Links (${String(e.link_analysis.total)} total; top 10 by relevance)`,
      '',
      ...links.map((l) => `- ${markdownLink(l.text || l.url, l.url, policy)} ${text(`${l.type}, ${l.relevance}`)}`),
      '',
    );
  }
  if (e.adaptive_crawl) {
    const crawl = e.adaptive_crawl as {
      pages_visited: number;
      stopped_because: string;
      pages: Array<{ url: string; information_gain: number }>;
    };
    lines.push(
      '',
      `### Adaptive crawl: ${crawl.pages_visited} pages, stopped: ${text(crawl.stopped_because)}`,
      '',
      ...crawl.pages.map((p) => `- ${markdownLink(p.url, p.url, policy)} (gain ${p.information_gain})`),
      '',
    );
  }
  return lines.join('\n');
}

export function renderEnhancedMarkdown(answer: EnhancedAnswer, policy: LinkPolicy): string {
  const head = renderSearchMarkdown(
    { query: answer.search_metadata.query, results: answer.results, search_metadata: answer.search_metadata },
    { linkPolicy: policy },
  );
  return [head, ...answer.results.map((result) => resultSection(result, policy)).filter(Boolean)].join('\n\n');
}
