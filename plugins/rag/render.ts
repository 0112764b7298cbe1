/** Markdown renderings of the RAG area's answers for agents reading MCP text. */
import type { z } from 'zod';
import type { ragImagesOutputSchema, RagResearchResult, RagSearchOutput, semanticSearchOutputSchema } from './schemas.js';

function oneLine(text: string, max = 300): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

export function renderRagSearch(out: RagSearchOutput): string {
  const lines = [`# ${out.query}`, ''];
  if (out.context) lines.push(`## Context (${out.context_tokens} tokens; [n] → sources)`, '', out.context, '');
  lines.push('## Sources', '', ...out.sources.map((s, i) => `[${i + 1}] [${s.title}](${s.url}) — relevance ${s.relevance_score}\n    ${oneLine(s.summary)}`));
  return lines.join('\n');
}

export function renderResearch(out: RagResearchResult): string {
  return [
    `# Corpus ${out.corpus_id}: ${out.topic}`,
    '',
    `Status ${out.status}; ${out.counts.sources} sources, ${out.counts.chunks} chunks (${out.embedding_model}); ${out.queries_executed.length} queries, depth ${out.depth}.`,
    '',
    ...out.sources.slice(0, 20).map((s, i) => `${i + 1}. [${s.title}](${s.url}) — ${s.relevance_score}: ${oneLine(s.summary, 200)}`),
    out.sources.length > 20 ? `… and ${out.sources.length - 20} more` : '',
    '',
    `Search it with rag_semantic_search (corpus_id ${out.corpus_id}).`,
  ].join('\n');
}

export function renderSemantic(out: z.infer<typeof semanticSearchOutputSchema>): string {
  if (out.results.length === 0) return `No chunk of ${out.corpus_id} scored ${'≥'} the minimum relevance for "${out.query}".`;
  return [`# ${out.query} — in ${out.corpus_id}`, '', ...out.results.map((r, i) => `${i + 1}. (${r.score}) [${r.title}](${r.url}) ${r.id}, chars ${r.start}–${r.end}\n    ${oneLine(r.text, 500)}`)].join('\n');
}

export function renderImages(out: z.infer<typeof ragImagesOutputSchema>): string {
  return [`# Images: ${out.query}`, '', ...out.images.map((i) => `- ![${i.title}](${i.thumbnail_url}) ${i.url} (from ${i.source_url}; ${i.engines.join(', ')})`)].join('\n');
}
