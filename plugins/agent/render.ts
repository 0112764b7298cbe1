/**
 * Markdown renderings of the agent area's answers, for agents reading MCP
 * text: the answer first, with the sources its [n] cite. Answers and reports
 * come escaped from services/answers; page text here is escaped, sources go
 * through the one source list, and page bodies sit in fenced code (they may
 * be plain text or markdown, so neither escaping nor leaving them fits both).
 */
import {
  escapeMarkdownText,
  fencedCode,
  inlineText,
  markdownLink,
  type LinkPolicy,
} from '../../services/markdown/escape.js';
import { renderSourceList } from '../../services/markdown/source-list.js';
import type { AgentCrawlOutput, AgentMapOutput } from './crawl-schemas.js';
import type { AgentExtractOutput, AgentResearchReport, AgentSearchOutput } from './schemas.js';

const PAGE_CHARS = 4000;

function pageBody(content: string): string {
  return fencedCode(content.length > PAGE_CHARS ? `${content.slice(0, PAGE_CHARS)}…` : content);
}

function failuresLine(failed: Array<{ url: string; error: string }>, label: string): string[] {
  return failed.length > 0
    ? ['', `${label}: ${escapeMarkdownText(failed.map((f) => `${f.url} (${f.error})`).join('; '))}`]
    : [];
}

export function renderSearch(out: AgentSearchOutput, policy: LinkPolicy): string {
  const lines = [`# ${inlineText(out.query)}`, ''];
  if (out.answer !== null) lines.push(`**Answer** (${escapeMarkdownText(out.model_used)}): ${out.answer}`, '');
  const sources = out.results.map((r) => ({
    title: r.title,
    url: r.url,
    details: [
      `score ${r.score}`,
      !r.read && 'not read',
      r.safety?.flagged && '⚠ holds instructions aimed at agents (not followed)',
    ],
    excerpt: r.content,
  }));
  lines.push('## Sources', '', ...renderSourceList(sources, { policy, excerptChars: 400 }));
  if (out.images.length > 0) {
    lines.push('', '## Images', '');
    for (const image of out.images) {
      const url = typeof image === 'string' ? image : image.url;
      const description = typeof image === 'string' ? null : image.description;
      lines.push(`- ${markdownLink(url, url, policy)}${description ? ` — ${inlineText(description)}` : ''}`);
    }
  }
  return [...lines, ...failuresLine(out.failed_results, 'Pages not read')].join('\n');
}

export function renderExtract(out: AgentExtractOutput, policy: LinkPolicy): string {
  const parts = out.results.map((r) =>
    r.failed
      ? `## ${inlineText(r.url)}\n\nFailed: ${inlineText(r.error ?? 'unknown reason')}`
      : `## ${inlineText(r.title || r.url)}\n${markdownLink(r.url, r.url, policy)}\n\n${pageBody(r.raw_content)}`,
  );
  return parts.join('\n\n');
}

export function renderCrawl(out: AgentCrawlOutput, policy: LinkPolicy): string {
  const lines = [
    `# Crawl of ${inlineText(out.base_url)}: ${out.results.length} pages${out.timed_out ? ' (stopped by the timeout)' : ''}`,
  ];
  for (const r of out.results) {
    lines.push(
      '',
      `## ${inlineText(r.title || r.url)}`,
      `${markdownLink(r.url, r.url, policy)} — depth ${r.depth}${r.score !== undefined ? `, score ${r.score}` : ''}`,
      '',
    );
    lines.push(pageBody(r.raw_content));
  }
  return [...lines, ...failuresLine(out.failed_results, 'Not read')].join('\n');
}

export function renderMap(out: AgentMapOutput): string {
  const lines = [
    `# Map of ${inlineText(out.base_url)}: ${out.results.length} URLs${out.timed_out ? ' (stopped by the timeout)' : ''}`,
    '',
    ...out.results.map((url) => `- ${inlineText(url)}`),
  ];
  return [...lines, ...failuresLine(out.failed_results, 'Not read')].join('\n');
}

/**
 * The report's summary, findings and analysis are markdown from services/answers (page text escaped, citations kept).
 */
export function renderResearch(out: AgentResearchReport, policy: LinkPolicy): string {
  const lines = [`# Research: ${inlineText(out.query)}`, ''];
  if (out.executive_summary) lines.push('## Executive summary', '', out.executive_summary, '');
  if (out.key_findings.length > 0) lines.push('## Key findings', '', ...out.key_findings.map((f) => `- ${f}`), '');
  if (out.detailed_analysis)
    lines.push('## Detailed analysis', '', out.detailed_analysis.replace(/^## /gm, '### '), '');
  lines.push(
    '## Sources',
    '',
    ...renderSourceList(
      out.sources.map((s) => ({ title: s.title, url: s.url, details: [`score ${s.score}`] })),
      { policy },
    ),
    '',
  );
  const m = out.methodology;
  lines.push(
    `_${m.depth} research: ${m.queries_executed} queries, ${m.sources_analyzed} pages read, ${m.rounds} round(s), ${m.pages_failed} pages failed, ${m.duplicates_removed} duplicates removed; model: ${escapeMarkdownText(out.model_used)}._`,
  );
  return lines.join('\n');
}
