/** Graph records in the API's shapes (Entity, Relationship, Person). */
import { edgeKey, type EdgeRecord, type EntityRecord } from './graph/types.js';
import type { SearchHit } from './service/knowledge-service.js';

const SOURCES_SHOWN = 10;

export function topTitle(entity: EntityRecord): string | null {
  const ranked = Object.entries(entity.titles).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  return ranked[0]?.[0] ?? null;
}

export function entityView(entity: EntityRecord, hit?: Pick<SearchHit, 'match' | 'score'>) {
  return {
    id: entity.id,
    type: entity.type,
    name: entity.name,
    description: entity.description,
    source_count: entity.sourceCount,
    metadata: {
      aliases: entity.aliases,
      merged: entity.merges.map((m) => ({ alias: m.alias, rule: m.rule })),
      title: entity.type === 'person' ? topTitle(entity) : null,
      degree: entity.degree,
      model_used: entity.modelUsed,
      sources: entity.sources
        .slice(-SOURCES_SHOWN)
        .reverse()
        .map((s) => ({ url: s.url, title: s.title, date: s.date })),
      created_at: entity.createdAt,
      updated_at: entity.updatedAt,
      ...(hit && hit.match !== 'related' ? { match: hit.match, score: hit.score } : {}),
    },
  };
}

export function relationshipView(edge: EdgeRecord) {
  return { from_entity: edge.from, to_entity: edge.to, type: edge.type, weight: edge.sources.length };
}

/** A relationship as an extraction returns it: found directly in the text, with the sentence that states it. */
export function extractedRelationshipView(edge: EdgeRecord, evidence: ReadonlyMap<string, string>) {
  const sentence = evidence.get(edgeKey(edge));
  return { ...relationshipView(edge), source: 'direct' as const, ...(sentence ? { evidence: sentence } : {}) };
}
