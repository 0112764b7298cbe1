/**
 * Markdown renderings of the RAG area's answers for agents reading MCP text (page text escaped, sources through the one
 * source list).
 */
import type { z } from 'zod';
import {
  escapeMarkdownText as text,
  inlineText,
  markdownImage,
  markdownLink,
  type LinkPolicy,
} from '../../services/markdown/escape.js';
import { renderSourceList } from '../../services/markdown/source-list.js';
import type {
  corporaListOutputSchema,
  corpusGetOutputSchema,
  ragImagesOutputSchema,
  RagResearchResult,
  RagSearchOutput,
  semanticSearchOutputSchema,
} from './schemas.js';

export function renderRagSearch(out: RagSearchOutput, policy: LinkPolicy): string {
  const lines = [`# ${inlineText(out.query)}`, ''];
  // The context comes escaped (services/answers/context.ts), each chunk tagged [n].
  if (out.context) lines.push(`## Context (${out.context_tokens} tokens; [n] → sources)`, '', out.context, '');
  const sources = out.sources.map((s) => ({
    title: s.title,
    url: s.url,
    details: [`relevance ${s.relevance_score}`],
    excerpt: s.summary,
  }));
  lines.push('## Sources', '', ...renderSourceList(sources, { policy }));
  return lines.join('\n');
}

export function renderResearch(out: RagResearchResult, policy: LinkPolicy): string {
  const sources = out.sources.map((s) => ({
    title: s.title,
    url: s.url,
    details: [`relevance ${s.relevance_score}`],
    excerpt: s.summary,
  }));
  return [
    `# Corpus ${out.corpus_id}: ${inlineText(out.topic)}`,
    '',
    `Status ${out.status}; ${out.counts.sources} sources, ${out.counts.chunks} chunks (${text(out.embedding_model)}); ${out.queries_executed.length} queries, depth ${out.depth}.`,
    '',
    ...renderSourceList(sources, { policy, marker: 'number', excerptChars: 200, limit: 20 }),
    '',
    `Search it with rag\\_semantic\\_search (corpus\\_id ${out.corpus_id}).`,
  ].join('\n');
}

export function renderSemantic(out: z.infer<typeof semanticSearchOutputSchema>, policy: LinkPolicy): string {
  if (out.results.length === 0)
    return `No chunk of ${out.corpus_id} scored ≥ the minimum relevance for "${inlineText(out.query)}".`;
  const chunks = out.results.map((r) => ({
    title: r.title,
    url: r.url,
    details: [`score ${r.score}`, r.id, `chars ${r.start}–${r.end}`],
    excerpt: r.text,
  }));
  return [
    `# ${inlineText(out.query)} — in ${out.corpus_id}`,
    '',
    ...renderSourceList(chunks, { policy, marker: 'number', excerptChars: 500 }),
  ].join('\n');
}

export function renderImages(out: z.infer<typeof ragImagesOutputSchema>, policy: LinkPolicy): string {
  return [
    `# Images: ${inlineText(out.query)}`,
    '',
    ...out.images.map(
      (i) =>
        `- ${markdownImage(i.title, i.thumbnail_url, policy)} ${markdownLink(i.title || i.url, i.url, policy)} (from ${markdownLink(i.source_url, i.source_url, policy)}; ${text(i.engines.join(', '))})`,
    ),
  ].join('\n');
}

export function renderCorpora(out: z.infer<typeof corporaListOutputSchema>): string {
  return (
    out.corpora
      .map(
        (c) =>
          `- ${c.corpus_id} — ${inlineText(c.topic)} (${c.status}; ${c.counts.sources} sources, ${c.counts.chunks} chunks)`,
      )
      .join('\n') || 'No corpus yet.'
  );
}

/** A corpus with its documents, as a tool answer and as the quarry://corpora/{id} resource. */
export function renderCorpus(out: z.infer<typeof corpusGetOutputSchema>, policy: LinkPolicy): string {
  const sources = out.sources.map((s) => ({
    title: s.title,
    url: s.url,
    details: [`${s.chunks} chunks`, `relevance ${s.relevance_score}`],
    excerpt: s.summary,
  }));
  return [
    `# Corpus ${out.corpus_id}: ${inlineText(out.topic)}`,
    '',
    `Status ${out.status}${out.status_reason ? ` (${inlineText(out.status_reason)})` : ''}; ${out.counts.sources} sources, ${out.counts.chunks} chunks (${text(out.embedding_model)}); updated ${out.updated_at}.`,
    '',
    '## Documents',
    '',
    ...(sources.length > 0
      ? renderSourceList(sources, { policy, marker: 'number', excerptChars: 300 })
      : ['None yet.']),
  ].join('\n');
}
