/**
 * Merges one text's extraction into the graph, deterministically:
 *
 * 1. Each extracted entity finds its graph entity by its names' keys in the
 *    alias index (any exact name of the same type: rule "alias-index"); a
 *    one-word name falls back to a unique person with that surname
 *    ("surname"), a unique organisation with those initials ("acronym") or
 *    with that first or last word ("short-form"); otherwise it is new, with
 *    an id derived from its type and name key (so two instances that meet
 *    the same new name create the same entity).
 * 2. Aliases, merge notes, titles, topics and the source are added; a
 *    source already counted is not counted again.
 * 3. Relations become edges; an edge's weight is the number of distinct
 *    sources that state it. A new edge raises both ends' degree.
 *
 * The write names every version it read; the backend refuses it when one
 * moved, and the merge starts over on fresh data.
 */
import { createHash } from 'node:crypto';
import { acronymLetters, aliasKeys, hasDesignator, nameKey } from '../entities/names.js';
import { SYMMETRIC_RELATIONS, type EntityType, type Extraction, type MergeRule } from '../entities/types.js';
import { edgeKey, type EdgeRecord, type EntityRecord, type GraphBackend, type GraphWrite, type SourceRef } from './types.js';

export const MAX_SOURCES_KEPT = 50;
const MAX_CUES = 10;
const MAX_ATTEMPTS = 8;

export interface MergeInput {
  extraction: Extraction;
  source: Omit<SourceRef, 'snippet'>;
  modelUsed: string;
  /** Vectors for the extracted entities, by their key (new entities take them). */
  vectors?: Map<string, number[]>;
  now?: Date;
}

export interface MergeResult {
  /** The graph entity of each extracted entity, by the extracted key. */
  entities: Map<string, EntityRecord>;
  edges: EdgeRecord[];
}

export function entityId(type: EntityType, key: string): string {
  return `ent_${createHash('sha256').update(`${type}:${key}`).digest('hex').slice(0, 16)}`;
}

export function sourceId(url: string | null, text: string): string {
  const basis = url ?? text.replace(/\s+/g, ' ').trim();
  return createHash('sha256').update(basis).digest('hex').slice(0, 16);
}

interface Resolution {
  id: string;
  rule: MergeRule | null;
}

/**
 * Types a name may be found under besides its own: the tagger confuses
 * companies with their products (both capitalised names in the same
 * places), never people with either.
 */
const COMPATIBLE: Record<EntityType, readonly EntityType[]> = {
  person: [],
  location: [],
  organization: ['product', 'technology'],
  product: ['organization', 'technology'],
  technology: ['product', 'organization'],
  event: [],
  work: [],
};

async function byAlias(backend: GraphBackend, type: EntityType, names: string[]): Promise<string | null> {
  const exact = [...new Set(names.map((n) => nameKey(type, n)).filter(Boolean).map((k) => `${type}:${k}`))];
  const hits = await backend.lookupAliases(exact);
  const votes = new Map<string, number>();
  for (const ids of hits.values()) for (const id of ids) votes.set(id, (votes.get(id) ?? 0) + 1);
  if (votes.size === 0) return null;
  return [...votes].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]![0];
}

async function resolve(backend: GraphBackend, type: EntityType, names: string[]): Promise<Resolution> {
  for (const candidate of [type, ...COMPATIBLE[type]]) {
    const id = await byAlias(backend, candidate, names);
    if (id) return { id, rule: 'alias-index' };
  }
  const main = nameKey(type, names[0]!);
  if (!main.includes(' ')) {
    const fallbacks: Array<[string, MergeRule]> = [];
    if (type === 'person') fallbacks.push([`person~surname:${main}`, 'surname']);
    if (type === 'organization') {
      const letters = acronymLetters(names[0]!);
      if (letters) fallbacks.push([`organization~acronym:${letters}`, 'acronym']);
      fallbacks.push([`organization~word:${main}`, 'short-form']);
    }
    const found = await backend.lookupAliases(fallbacks.map(([k]) => k));
    for (const [key, rule] of fallbacks) {
      const ids = found.get(key) ?? [];
      if (ids.length === 1) return { id: ids[0]!, rule };
    }
  }
  return { id: entityId(type, main), rule: null };
}

function addCount(counts: Record<string, number>, key: string): void {
  counts[key] = (counts[key] ?? 0) + 1;
}

async function plan(backend: GraphBackend, input: MergeInput): Promise<{ write: GraphWrite; result: MergeResult }> {
  const now = (input.now ?? new Date()).toISOString();
  const { extraction } = input;
  const resolved = new Map<string, Resolution>();
  for (const entity of extraction.entities) {
    resolved.set(entity.key, await resolve(backend, entity.type, [entity.name, ...entity.mentions]));
  }
  const ids = [...new Set([...resolved.values()].map((r) => r.id))];
  const existing = await backend.getEntities(ids);
  const expectEntities = new Map<string, number | null>(ids.map((id) => [id, existing.get(id)?.version ?? null]));
  const records = new Map<string, EntityRecord>();
  for (const id of ids) {
    const before = existing.get(id);
    if (before) records.set(id, structuredClone(before));
  }

  for (const entity of extraction.entities) {
    const { id, rule } = resolved.get(entity.key)!;
    let record = records.get(id);
    if (!record) {
      record = {
        id,
        type: entity.type,
        name: entity.name,
        description: entity.description,
        aliases: [],
        merges: [],
        aliasKeys: [],
        sources: [],
        sourceCount: 0,
        titles: {},
        topics: {},
        degree: 0,
        modelUsed: input.modelUsed,
        createdAt: now,
        updatedAt: now,
        version: 0,
      };
      const vector = input.vectors?.get(entity.key);
      if (vector) record.vector = vector;
      records.set(id, record);
    }
    if (!record.description && entity.description) record.description = entity.description;
    const names = [entity.name, ...entity.mentions, ...entity.merges.map((m) => m.alias)];
    for (const alias of names) {
      if (record.aliases.includes(alias)) continue;
      record.aliases.push(alias);
      if (alias === record.name) continue;
      const docRule = entity.merges.find((m) => m.alias === alias)?.rule;
      const how = docRule ?? (alias === entity.name && rule ? (rule === 'alias-index' && hasDesignator(alias) ? 'designator' : rule) : 'same-name');
      if (!record.merges.some((m) => m.alias === alias)) record.merges.push({ alias, rule: how });
    }
    record.aliasKeys = aliasKeys(record.type, record.aliases);
    if (!record.sources.some((s) => s.id === input.source.id)) {
      record.sources.push({ ...input.source, snippet: entity.snippet });
      record.sourceCount += 1;
      if (record.sources.length > MAX_SOURCES_KEPT) record.sources.splice(0, record.sources.length - MAX_SOURCES_KEPT);
      if (entity.title) addCount(record.titles, entity.title);
      for (const topic of entity.cooccurring) addCount(record.topics, topic);
    }
    record.updatedAt = now;
  }

  const edgeInputs = new Map<string, EdgeRecord>();
  for (const relation of extraction.relations) {
    let from = resolved.get(relation.from)?.id;
    let to = resolved.get(relation.to)?.id;
    if (!from || !to || from === to) continue;
    if (SYMMETRIC_RELATIONS.has(relation.type) && from > to) [from, to] = [to, from];
    const key = edgeKey({ from, type: relation.type, to });
    const edge = edgeInputs.get(key) ?? { from, to, type: relation.type, sources: [], cues: [], createdAt: now, updatedAt: now, version: 0 };
    if (!edge.cues.includes(relation.cue)) edge.cues.push(relation.cue);
    edgeInputs.set(key, edge);
  }
  const existingEdges = await backend.getEdges([...edgeInputs.keys()]);
  const expectEdges = new Map<string, number | null>();
  const putEdges: EdgeRecord[] = [];
  for (const [key, fresh] of edgeInputs) {
    const before = existingEdges.get(key);
    expectEdges.set(key, before?.version ?? null);
    const edge = before ? structuredClone(before) : fresh;
    if (!before) {
      records.get(edge.from)!.degree += 1;
      records.get(edge.to)!.degree += 1;
    } else {
      for (const cue of fresh.cues) if (!edge.cues.includes(cue)) edge.cues.push(cue);
      edge.cues = edge.cues.slice(-MAX_CUES);
    }
    if (!edge.sources.includes(input.source.id)) edge.sources.push(input.source.id);
    edge.updatedAt = now;
    edge.version += 1;
    putEdges.push(edge);
  }
  for (const record of records.values()) record.version += 1;

  const entities = new Map<string, EntityRecord>();
  for (const [key, { id }] of resolved) entities.set(key, records.get(id)!);
  return {
    write: { expectEntities, expectEdges, putEntities: [...records.values()], deleteEntities: [], putEdges, deleteEdges: [] },
    result: { entities, edges: putEdges },
  };
}

export async function mergeExtraction(backend: GraphBackend, input: MergeInput): Promise<MergeResult> {
  for (let attempt = 1; ; attempt++) {
    const { write, result } = await plan(backend, input);
    if (await backend.commit(write)) return result;
    if (attempt >= MAX_ATTEMPTS) throw new Error(`the graph changed under ${MAX_ATTEMPTS} merge attempts in a row`);
  }
}

/** Removes an entity, its edges and its alias entries; false when it does not exist. */
export async function deleteEntity(backend: GraphBackend, id: string): Promise<boolean> {
  for (let attempt = 1; ; attempt++) {
    const entity = (await backend.getEntities([id])).get(id);
    if (!entity) return false;
    const edges = await backend.edgesOf(id);
    const others = [...new Set(edges.map((e) => (e.from === id ? e.to : e.from)))];
    const neighbours = await backend.getEntities(others);
    const expectEntities = new Map<string, number | null>([[id, entity.version]]);
    const putEntities: EntityRecord[] = [];
    for (const other of neighbours.values()) {
      expectEntities.set(other.id, other.version);
      const lost = edges.filter((e) => e.from === other.id || e.to === other.id).length;
      putEntities.push({ ...other, degree: Math.max(0, other.degree - lost), version: other.version + 1 });
    }
    const expectEdges = new Map<string, number | null>(edges.map((e) => [edgeKey(e), e.version]));
    if (await backend.commit({ expectEntities, expectEdges, putEntities, deleteEntities: [entity], putEdges: [], deleteEdges: edges })) return true;
    if (attempt >= MAX_ATTEMPTS) throw new Error(`the graph changed under ${MAX_ATTEMPTS} delete attempts in a row`);
  }
}
