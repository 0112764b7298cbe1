/**
 * The knowledge area's answers as markdown for agents: names, descriptions and titles come from pages, so all are
 * escaped.
 */
import type { z } from 'zod';
import { escapeMarkdownText as text, inlineText } from '../../services/markdown/escape.js';
import type {
  entityOutputSchema,
  extractOutputSchema,
  graphOutputSchema,
  peopleOutputSchema,
  searchOutputSchema,
} from './schemas.js';

const list = (items: string[]) => (items.length ? items.map((i) => `- ${i}`).join('\n') : '_none_');

function nameOf(items: ReadonlyArray<{ id: string; name: string }>, id: string): string {
  return inlineText(items.find((i) => i.id === id)?.name ?? id);
}

type Relationship = { from_entity: string; to_entity: string; type: string; weight: number };

function relations(relationships: Relationship[], entities: ReadonlyArray<{ id: string; name: string }> = []): string {
  return list(
    relationships.map(
      (r) => `${nameOf(entities, r.from_entity)} —${r.type}→ ${nameOf(entities, r.to_entity)} (weight ${r.weight})`,
    ),
  );
}

export function extractMarkdown(out: z.infer<typeof extractOutputSchema>): string {
  return [
    `# Extracted ${out.entities.length} entities, ${out.relationships.length} relations (${text(out.model_used)}${out.stored ? ', stored' : ''})`,
    list(
      out.entities.map(
        (e) =>
          `**${inlineText(e.name)}** (${e.type}, ${e.id}) — ${e.source_count} source(s)${e.metadata.aliases.length > 1 ? `; aliases: ${inlineText(e.metadata.aliases.join(', '))}` : ''}`,
      ),
    ),
    '## Relations',
    relations(out.relationships, out.entities),
  ].join('\n');
}

export function searchMarkdown(out: z.infer<typeof searchOutputSchema>): string {
  return [
    `# Knowledge search: ${inlineText(out.query)}`,
    list(out.entities.map((e) => `**${inlineText(e.name)}** (${e.type}, ${e.id}) — ${inlineText(e.description, 160)}`)),
    out.relationships.length ? `## Relations\n${relations(out.relationships, out.entities)}` : '',
  ]
    .filter(Boolean)
    .join('\n');
}

export function peopleMarkdown(out: z.infer<typeof peopleOutputSchema>): string {
  return [
    `# People: ${inlineText(out.query)}`,
    list(
      out.people.map(
        (p) =>
          `**${inlineText(p.name)}** (${p.id})${p.title ? `, ${inlineText(p.title)}` : ''}${p.organization ? ` — ${inlineText(p.organization)}` : ''}${p.expertise.length ? `; expertise: ${inlineText(p.expertise.join(', '))}` : ''}`,
      ),
    ),
  ].join('\n');
}

export function entityMarkdown(out: z.infer<typeof entityOutputSchema>): string {
  return [
    `# ${inlineText(out.entity.name)} (${out.entity.type}, ${out.entity.id})`,
    text(out.entity.description),
    `Sources: ${out.entity.source_count}; aliases: ${inlineText(out.entity.metadata.aliases.join(', '))}`,
    '## Relations',
    relations(out.relationships),
  ].join('\n');
}

export function graphMarkdown(out: z.infer<typeof graphOutputSchema>): string {
  return [
    `# Knowledge graph: ${out.nodes.length} nodes, ${out.edges.length} edges`,
    list(out.nodes.map((n) => `${inlineText(n.name)} (${n.type}, ${n.id}, ${n.degree} relations)`)),
    '## Edges',
    relations(
      out.edges.map((e) => ({ from_entity: e.from, to_entity: e.to, type: e.type, weight: e.weight })),
      out.nodes,
    ),
  ].join('\n');
}
