/** Markdown renderings of the agent area's answers, for agents reading MCP text: the answer first, with the sources its [n] cite. */
import { escapeMarkdownText } from '../../services/markdown/escape.js';
import type { AgentCrawlOutput, AgentMapOutput } from './crawl-schemas.js';
import type { AgentExtractOutput, AgentResearchReport, AgentSearchOutput } from './schemas.js';

function oneLine(text: string, max = 400): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

export function renderSearch(out: AgentSearchOutput): string {
  const lines = [`# ${out.query}`, ''];
  if (out.answer !== null) lines.push(`**Answer** (${out.model_used}): ${out.answer}`, '');
  lines.push('## Sources', '');
  out.results.forEach((r, i) => {
    lines.push(`[${i + 1}] [${r.title}](${r.url}) — score ${r.score}${r.read ? '' : ' (not read)'}${r.safety?.flagged ? ' — ⚠ holds instructions aimed at agents (not followed)' : ''}`);
    lines.push(`    ${oneLine(r.content)}`);
  });
  if (out.images.length > 0) {
    lines.push('', '## Images', '');
    for (const image of out.images) lines.push(typeof image === 'string' ? `- ${image}` : `- ${image.url}${image.description ? ` — ${image.description}` : ''}`);
  }
  if (out.failed_results.length > 0) lines.push('', `Pages not read: ${out.failed_results.map((f) => `${f.url} (${f.error})`).join('; ')}`);
  return lines.join('\n');
}

export function renderExtract(out: AgentExtractOutput): string {
  const parts = out.results.map((r) =>
    r.failed ? `## ${r.url}\n\nFailed: ${r.error ?? 'unknown reason'}` : `## ${r.title ?? r.url}\n${r.url}\n\n${r.raw_content.length > 4000 ? `${r.raw_content.slice(0, 4000)}…` : r.raw_content}`,
  );
  return parts.join('\n\n');
}

function failuresLine(failed: Array<{ url: string; error: string }>): string[] {
  return failed.length > 0 ? ['', `Not read: ${escapeMarkdownText(failed.map((f) => `${f.url} (${f.error})`).join('; '))}`] : [];
}

export function renderCrawl(out: AgentCrawlOutput): string {
  const lines = [`# Crawl of ${escapeMarkdownText(out.base_url)}: ${out.results.length} pages${out.timed_out ? ' (stopped by the timeout)' : ''}`];
  for (const r of out.results) {
    lines.push('', `## ${escapeMarkdownText(r.title ?? r.url)}`, `${escapeMarkdownText(r.url)} — depth ${r.depth}${r.score !== undefined ? `, score ${r.score}` : ''}`, '');
    lines.push(r.raw_content.length > 4000 ? `${r.raw_content.slice(0, 4000)}…` : r.raw_content);
  }
  return [...lines, ...failuresLine(out.failed_results)].join('\n');
}

export function renderMap(out: AgentMapOutput): string {
  const lines = [`# Map of ${escapeMarkdownText(out.base_url)}: ${out.results.length} URLs${out.timed_out ? ' (stopped by the timeout)' : ''}`, '', ...out.results.map((url) => `- ${escapeMarkdownText(url)}`)];
  return [...lines, ...failuresLine(out.failed_results)].join('\n');
}

export function renderResearch(out: AgentResearchReport): string {
  const lines = [`# Research: ${out.query}`, ''];
  if (out.executive_summary) lines.push('## Executive summary', '', out.executive_summary, '');
  if (out.key_findings.length > 0) lines.push('## Key findings', '', ...out.key_findings.map((f) => `- ${f}`), '');
  if (out.detailed_analysis) lines.push('## Detailed analysis', '', out.detailed_analysis.replace(/^## /gm, '### '), '');
  lines.push('## Sources', '', ...out.sources.map((s, i) => `[${i + 1}] [${s.title}](${s.url}) — score ${s.score}`), '');
  const m = out.methodology;
  lines.push(
    `_${m.depth} research: ${m.queries_executed} queries, ${m.sources_analyzed} pages read, ${m.rounds} round(s), ${m.pages_failed} pages failed, ${m.duplicates_removed} duplicates removed; model: ${out.model_used}._`,
  );
  return lines.join('\n');
}
