/** The enhanced answer as markdown for agents: the search summary, then what each strategy found per result. */
import { renderSearchMarkdown } from '../../../services/web-search/render-markdown.js';
import type { EnhancedAnswer, EnhancedResult } from './schemas.js';

const MAX_SECTION_CHARS = 3000;

function clip(text: string): string {
  return text.length > MAX_SECTION_CHARS ? `${text.slice(0, MAX_SECTION_CHARS)}…` : text;
}

function resultSection(result: EnhancedResult): string {
  const e = result.enhanced;
  if (!e) return '';
  const lines = [`## ${result.rank}. ${result.title} — enhanced (${e.status})`, ''];
  for (const error of e.errors) lines.push(`- ${error.step} failed: ${error.code} ${error.message}`);
  if (e.virtual_scroll) lines.push(`- virtual scrolling: ${e.virtual_scroll.used ? 'used' : (e.virtual_scroll.reason ?? 'not used')}`);
  if (e.content) lines.push(`- ${e.content.filter} filter kept ${e.content.blocks_kept} of ${e.content.blocks_total} blocks`);
  if (e.markdown) lines.push('', clip(e.markdown), '');
  if (e.extraction) lines.push('', `### Extraction (${e.extraction.strategy})`, '', '```json', clip(JSON.stringify(e.extraction.data, null, 2)), '```', '');
  if (e.link_analysis) {
    const links = (e.link_analysis.links as Array<{ url: string; text: string; type: string; relevance: number }>).slice(0, 10);
    lines.push('', `### Links (${String(e.link_analysis.total)} total; top 10 by relevance)`, '', ...links.map((l) => `- [${l.text || l.url}](${l.url}) ${l.type}, ${l.relevance}`), '');
  }
  if (e.adaptive_crawl) {
    const crawl = e.adaptive_crawl as { pages_visited: number; stopped_because: string; pages: Array<{ url: string; information_gain: number }> };
    lines.push('', `### Adaptive crawl: ${crawl.pages_visited} pages, stopped: ${crawl.stopped_because}`, '', ...crawl.pages.map((p) => `- ${p.url} (gain ${p.information_gain})`), '');
  }
  return lines.join('\n');
}

export function renderEnhancedMarkdown(answer: EnhancedAnswer): string {
  const head = renderSearchMarkdown({ query: answer.search_metadata.query, results: answer.results, search_metadata: answer.search_metadata });
  return [head, ...answer.results.map(resultSection).filter(Boolean)].join('\n\n');
}
