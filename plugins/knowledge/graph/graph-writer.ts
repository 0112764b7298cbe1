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
 * 4. A new full name takes in the one stored entity known only by its
 *    short form ("Disney" stored before "Walt Disney Co.", "Nadella" before
 *    "Satya Nadella"): names, sources and relations move to it, the short
 *    form is deleted (its own commit, after the merge).
 *
 * The write names every version it read; the backend refuses it when one
 * moved, and the merge starts over on fresh data. Writes through one backend
 * run one at a time in this process, so a refusal can only come from another
 * instance on the same (Redis) graph; those retries back off with jitter so
 * contending instances spread out instead of refusing each other in lockstep.
 */
import { createHash } from 'node:crypto';
import { AppError } from '../../../core/errors.js';
import { acronymLetters, aliasKeys, hasDesignator, nameKey } from '../../../services/entities/names.js';
import {
  SYMMETRIC_RELATIONS,
  type EntityType,
  type Extraction,
  type MergeRule,
} from '../../../services/entities/types.js';
import {
  edgeKey,
  type EdgeRecord,
  type EntityRecord,
  type GraphBackend,
  type GraphWrite,
  type SourceRef,
} from './types.js';

export const MAX_SOURCES_KEPT = 50;
const MAX_CUES = 10;
/**
 * Commit attempts of one write; with the backoff below about 6 s of contention from other instances before giving up.
 */
const MAX_ATTEMPTS = 30;
const BACKOFF_BASE_MS = 5;
const BACKOFF_MAX_MS = 300;

export interface MergeInput {
  extraction: Extraction;
  source: Omit<SourceRef, 'snippet'>;
  modelUsed: string;
  /** Vectors for the extracted entities, by their key (new entities take them). */
  vectors?: Map<string, number[]>;
  now?: Date;
  /** The graph's cap: a merge that would take it past is refused whole (GraphCapReached, graph-cap.ts). */
  maxEntities?: number;
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
  const exact = [
    ...new Set(
      names
        .map((n) => nameKey(type, n))
        .filter(Boolean)
        .map((k) => `${type}:${k}`),
    ),
  ];
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

async function plan(
  backend: GraphBackend,
  input: MergeInput,
): Promise<{ write: GraphWrite; result: MergeResult; created: string[] }> {
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
      const how =
        docRule ??
        (alias === entity.name && rule
          ? rule === 'alias-index' && hasDesignator(alias)
            ? 'designator'
            : rule
          : 'same-name');
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
    const edge = edgeInputs.get(key) ?? {
      from,
      to,
      type: relation.type,
      sources: [],
      cues: [],
      createdAt: now,
      updatedAt: now,
      version: 0,
    };
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
  const created = ids.filter(
    (id) => !existing.has(id) && [...resolved.values()].some((r) => r.id === id && r.rule === null),
  );
  return {
    write: {
      expectEntities,
      expectEdges,
      putEntities: [...records.values()],
      deleteEntities: [],
      putEdges,
      deleteEdges: [],
      ...(input.maxEntities !== undefined ? { maxEntities: input.maxEntities } : {}),
    },
    result: { entities, edges: putEdges },
    created,
  };
}

/**
 * A stored entity known only by a short form of a name that has just
 * arrived in full ("Disney" before "Walt Disney Co.", "Nadella" before
 * "Satya Nadella"): the one entity of a compatible type registered under
 * the surname, or the first or last word, whose names are all one word.
 */
async function findShortForm(
  backend: GraphBackend,
  target: EntityRecord,
  records: Map<string, EntityRecord>,
): Promise<EntityRecord | null> {
  const words = nameKey(target.type, target.name).split(' ');
  if (words.length < 2 || (target.type !== 'person' && target.type !== 'organization')) return null;
  const shortForms =
    target.type === 'person' ? [words[words.length - 1]!] : [...new Set([words[0]!, words[words.length - 1]!])];
  const types = [target.type, ...COMPATIBLE[target.type]];
  const keys = shortForms.flatMap((word) => types.map((type) => `${type}:${word}`));
  const ids = [...new Set([...(await backend.lookupAliases(keys)).values()].flat())].filter(
    (id) => id !== target.id && !records.has(id),
  );
  if (ids.length !== 1) return null;
  const candidate = (await backend.getEntities(ids)).get(ids[0]!);
  if (!candidate || candidate.aliases.some((alias) => nameKey(candidate.type, alias).includes(' '))) return null;
  return candidate;
}

interface AbsorbPlan {
  target: EntityRecord;
  absorbed: EntityRecord;
  records: Map<string, EntityRecord>;
  expectEntities: Map<string, number | null>;
  expectEdges: Map<string, number | null>;
  putEdges: EdgeRecord[];
  deleteEntities: EntityRecord[];
  deleteEdges: EdgeRecord[];
  now: string;
}

/**
 * Folds the short-form entity into the new full one: names, sources, counts and relations move; the short form goes.
 */
async function absorb(backend: GraphBackend, plan: AbsorbPlan): Promise<void> {
  const { target, absorbed, records, expectEntities, expectEdges, putEdges, deleteEntities, deleteEdges, now } = plan;
  const rule: MergeRule = target.type === 'person' ? 'surname' : 'short-form';
  expectEntities.set(absorbed.id, absorbed.version);
  deleteEntities.push(absorbed);
  for (const alias of absorbed.aliases) {
    if (!target.aliases.includes(alias)) target.aliases.push(alias);
    if (alias !== target.name && !target.merges.some((m) => m.alias === alias)) target.merges.push({ alias, rule });
  }
  target.aliasKeys = aliasKeys(target.type, target.aliases);
  const known = new Set(target.sources.map((source) => source.id));
  const added = absorbed.sources.filter((source) => !known.has(source.id));
  const overlap = absorbed.sources.length - added.length;
  target.sources = [...added, ...target.sources].slice(-MAX_SOURCES_KEPT);
  target.sourceCount += absorbed.sourceCount - overlap;
  for (const [title, n] of Object.entries(absorbed.titles)) target.titles[title] = (target.titles[title] ?? 0) + n;
  for (const [topic, n] of Object.entries(absorbed.topics)) target.topics[topic] = (target.topics[topic] ?? 0) + n;
  if (!target.description) target.description = absorbed.description;

  const edges = await backend.edgesOf(absorbed.id);
  const others = [...new Set(edges.map((e) => (e.from === absorbed.id ? e.to : e.from)))].filter(
    (id) => !records.has(id),
  );
  for (const other of (await backend.getEntities(others)).values()) {
    records.set(other.id, structuredClone(other));
    expectEntities.set(other.id, other.version);
  }
  const moved = edges.map((edge) => {
    let from = edge.from === absorbed.id ? target.id : edge.from;
    let to = edge.to === absorbed.id ? target.id : edge.to;
    if (SYMMETRIC_RELATIONS.has(edge.type) && from > to) [from, to] = [to, from];
    return { edge, from, to, key: edgeKey({ from, type: edge.type, to }) };
  });
  const stored = await backend.getEdges(
    moved.map((m) => m.key).filter((key) => !putEdges.some((e) => edgeKey(e) === key)),
  );
  for (const { edge, from, to, key } of moved) {
    expectEdges.set(edgeKey(edge), edge.version);
    deleteEdges.push(edge);
    const other = edge.from === absorbed.id ? edge.to : edge.from;
    // An edge to an entity that no longer exists is dropped, not moved.
    if (from === to || !records.has(other)) continue;
    records.get(other)!.degree -= 1;
    let merged = putEdges.find((e) => edgeKey(e) === key);
    if (!merged && stored.has(key)) {
      merged = structuredClone(stored.get(key)!);
      expectEdges.set(key, merged.version);
      merged.version += 1;
      putEdges.push(merged);
    }
    if (merged) {
      for (const source of edge.sources) if (!merged.sources.includes(source)) merged.sources.push(source);
      for (const cue of edge.cues) if (!merged.cues.includes(cue)) merged.cues.push(cue);
      merged.updatedAt = now;
      continue;
    }
    expectEdges.set(key, null);
    putEdges.push({ ...structuredClone(edge), from, to, updatedAt: now, version: 1 });
    records.get(from)!.degree += 1;
    records.get(to)!.degree += 1;
  }
}

const writeQueues = new WeakMap<GraphBackend, Promise<unknown>>();

/** Runs one write after the ones this process started before it on the same backend. */
function serialised<T>(backend: GraphBackend, write: () => Promise<T>): Promise<T> {
  const run = (writeQueues.get(backend) ?? Promise.resolve()).then(write);
  writeQueues.set(
    backend,
    run.catch(() => undefined),
  );
  return run;
}

/**
 * After a refused commit: a pause growing with the attempt, randomised so two instances do not retry in step; throws
 * once attempts run out.
 */
async function backOff(attempt: number, what: string): Promise<void> {
  if (attempt >= MAX_ATTEMPTS)
    throw new AppError(
      'OVERLOADED',
      `the knowledge graph changed under ${MAX_ATTEMPTS} ${what} attempts in a row (other instances writing the same entities); retry later`,
    );
  const ceiling = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** attempt);
  await new Promise((resolve) => setTimeout(resolve, Math.random() * ceiling));
}

export function mergeExtraction(backend: GraphBackend, input: MergeInput): Promise<MergeResult> {
  return serialised(backend, () => mergeNow(backend, input));
}

async function mergeNow(backend: GraphBackend, input: MergeInput): Promise<MergeResult> {
  for (let attempt = 1; ; attempt++) {
    const { write, result, created } = await plan(backend, input);
    if (!(await backend.commit(write))) {
      await backOff(attempt, 'merge');
      continue;
    }
    // New full names take in the short forms stored before them, each in its own commit.
    let absorbedAny = false;
    for (const id of created)
      absorbedAny = (await absorbShortForm(backend, id, (input.now ?? new Date()).toISOString())) || absorbedAny;
    if (!absorbedAny) return result;
    // Answer with the records as they now are (names, sources and weights gained from the short forms).
    const fresh = await backend.getEntities([...new Set([...result.entities.values()].map((e) => e.id))]);
    const freshEdges = await backend.getEdges(result.edges.map(edgeKey));
    return {
      entities: new Map([...result.entities].map(([key, e]) => [key, fresh.get(e.id) ?? e])),
      edges: result.edges.map((e) => freshEdges.get(edgeKey(e)) ?? e),
    };
  }
}

/** Folds a stored short form into the entity `id` (see findShortForm); false when there is none. */
async function absorbShortForm(backend: GraphBackend, id: string, now: string): Promise<boolean> {
  for (let attempt = 1; ; attempt++) {
    const target = (await backend.getEntities([id])).get(id);
    if (!target) return false;
    const records = new Map<string, EntityRecord>([[id, structuredClone(target)]]);
    const absorbed = await findShortForm(backend, target, records);
    if (!absorbed) return false;
    const expectEntities = new Map<string, number | null>([[id, target.version]]);
    const expectEdges = new Map<string, number | null>();
    const putEdges: EdgeRecord[] = [];
    const deleteEntities: EntityRecord[] = [];
    const deleteEdges: EdgeRecord[] = [];
    await absorb(backend, {
      target: records.get(id)!,
      absorbed,
      records,
      expectEntities,
      expectEdges,
      putEdges,
      deleteEntities,
      deleteEdges,
      now,
    });
    for (const record of records.values()) {
      record.version += 1;
      record.updatedAt = now;
    }
    if (
      await backend.commit({
        expectEntities,
        expectEdges,
        putEntities: [...records.values()],
        deleteEntities,
        putEdges,
        deleteEdges,
      })
    )
      return true;
    await backOff(attempt, 'short-form merge');
  }
}

/** Removes an entity, its edges and its alias entries; false when it does not exist. */
export function deleteEntity(backend: GraphBackend, id: string): Promise<boolean> {
  return serialised(backend, () => deleteNow(backend, id));
}

async function deleteNow(backend: GraphBackend, id: string): Promise<boolean> {
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
    if (
      await backend.commit({
        expectEntities,
        expectEdges,
        putEntities,
        deleteEntities: [entity],
        putEdges: [],
        deleteEdges: edges,
      })
    )
      return true;
    await backOff(attempt, 'delete');
  }
}
