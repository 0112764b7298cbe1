/**
 * Extraction by a language model: entities and relations as JSON in the
 * closed type lists, turned into the same Extraction the offline analysis
 * gives (names keyed the same way, so resolution treats both alike).
 */
import { nameKey } from '../../../services/entities/names.js';
import {
  ENTITY_TYPES,
  RELATION_TYPES,
  type EntityType,
  type Extraction,
  type RelationType,
} from '../../../services/entities/types.js';
import type { LlmClient } from '../../../services/llm/types.js';

const SCHEMA = {
  type: 'object',
  properties: {
    entities: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          type: { type: 'string', enum: [...ENTITY_TYPES] },
          description: { type: 'string' },
          aliases: { type: 'array', items: { type: 'string' } },
          title: { type: 'string' },
        },
        required: ['name', 'type', 'description', 'aliases', 'title'],
        additionalProperties: false,
      },
    },
    relations: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          from: { type: 'string' },
          to: { type: 'string' },
          type: { type: 'string', enum: [...RELATION_TYPES] },
          evidence: { type: 'string' },
        },
        required: ['from', 'to', 'type', 'evidence'],
        additionalProperties: false,
      },
    },
  },
  required: ['entities', 'relations'],
  additionalProperties: false,
} as const;

interface LlmEntity {
  name?: unknown;
  type?: unknown;
  description?: unknown;
  aliases?: unknown;
  title?: unknown;
}

interface LlmRelation {
  from?: unknown;
  to?: unknown;
  type?: unknown;
  evidence?: unknown;
}

const str = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

export async function extractWithLlm(
  client: LlmClient,
  text: string,
  signal: AbortSignal,
): Promise<{ extraction: Extraction; model: string }> {
  const response = await client.complete({
    system:
      'Extract the named entities and the relations between them from the text. ' +
      `Entity types: ${ENTITY_TYPES.join(', ')}. Relation types (from → to): leads (person → organization), founded (person → organization), ` +
      'works_for (person → organization), developed (organization or person → product, technology or work), ' +
      'acquired, invested_in, partnered_with, ' +
      'competes_with, part_of (organization → organization, location → location), located_in (organization ' +
      'or event → location). ' +
      'Use each entity’s fullest name as "name" and list the other names the text uses for it in "aliases". ' +
      '"title" is a person’s role in the text, else "". ' +
      'Relations use entity names exactly as given in "name". Only what the text states.',
    messages: [{ role: 'user', content: text }],
    json: { name: 'knowledge', schema: SCHEMA },
    maxTokens: 2000,
    temperature: 0,
    signal,
  });
  const answer = (response.json ?? {}) as { entities?: unknown; relations?: unknown };
  if (!Array.isArray(answer.entities)) throw new Error('the model answered without an entities array');
  const keyOf = new Map<string, string>();
  const entities: Extraction['entities'] = [];
  for (const raw of answer.entities as LlmEntity[]) {
    const name = str(raw.name);
    const type = str(raw.type) as EntityType;
    if (!name || !ENTITY_TYPES.includes(type)) continue;
    const key = `${type}:${nameKey(type, name)}`;
    if (keyOf.has(name) || entities.some((e) => e.key === key)) continue;
    const aliases = Array.isArray(raw.aliases) ? raw.aliases.map(str).filter((a) => a && a !== name) : [];
    keyOf.set(name, key);
    for (const alias of aliases) keyOf.set(alias, key);
    const sentence = text.split(/(?<=[.!?])\s+/).find((s) => s.includes(name)) ?? text.slice(0, 280);
    entities.push({
      key,
      type,
      name,
      description: str(raw.description),
      mentions: [name, ...aliases.filter((a) => text.includes(a))],
      merges: aliases.map((alias) => ({ alias, rule: 'model-alias' as const })),
      ...(str(raw.title) ? { title: str(raw.title) } : {}),
      snippet: sentence.slice(0, 280),
      cooccurring: [],
    });
  }
  const relations: Extraction['relations'] = [];
  for (const raw of Array.isArray(answer.relations) ? (answer.relations as LlmRelation[]) : []) {
    const from = keyOf.get(str(raw.from));
    const to = keyOf.get(str(raw.to));
    const type = str(raw.type) as RelationType;
    if (from && to && from !== to && RELATION_TYPES.includes(type))
      relations.push({
        from,
        to,
        type,
        cue: str(raw.evidence).slice(0, 120) || 'llm',
        ...(str(raw.evidence) ? { evidence: str(raw.evidence).slice(0, 400) } : {}),
      });
  }
  for (const entity of entities) {
    const related = relations
      .filter((r) => r.from === entity.key || r.to === entity.key)
      .map((r) => (r.from === entity.key ? r.to : r.from));
    entity.cooccurring = [...new Set(related)]
      .map((k) => entities.find((e) => e.key === k)?.name)
      .filter((n): n is string => Boolean(n));
  }
  return { extraction: { entities, relations }, model: response.model };
}
