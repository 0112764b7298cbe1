/**
 * The knowledge graph as the API sees it: extraction (a language model when
 * one is configured, the offline tagger otherwise or when it fails), merge
 * into the durable graph, and the reads: search by name, alias and meaning,
 * people, an entity with its relations, the most connected part of the graph.
 * The graph store opens on first use (SQLite under the data directory, or
 * Redis when the installation has a Redis URL).
 *
 * One graph per principal (docs/http-api.md "Keys and ownership"): `scoped(namespace)`
 * is the service on one principal's graph, with its own store (a SQLite file
 * under dataDir/knowledge-graphs, or its own Redis key prefix), so merges,
 * reads, searches and deletes never cross principals. The unscoped service is
 * the installation's graph: the admins', and the one the page feed fills.
 */
import { roundTo } from '../../../core/rounding.js';
import { join } from 'node:path';
import { AppError } from '../../../core/errors.js';
import type { Logger } from '../../../core/logger.js';
import type { Principal } from '../../../core/principal.js';
import { aliasKeys, nameKey, nameTokens } from '../../../services/entities/names.js';
import type { TokenClassifier } from '../../../services/entities/token-classifier.js';
import {
  ENTITY_TYPES,
  SYMMETRIC_RELATIONS,
  type EntityType,
  type Extraction,
} from '../../../services/entities/types.js';
import type { Embedder } from '../../../services/embeddings/types.js';
import { deleteEntity, entityId, mergeExtraction, sourceId } from '../graph/graph-writer.js';
import { RedisGraphBackend } from '../graph/redis-backend.js';
import { SqliteGraphBackend } from '../graph/sqlite-backend.js';
import { edgeKey, type EdgeRecord, type EntityRecord, type GraphBackend } from '../graph/types.js';
import type { LlmTiers } from '../../../services/llm/registry.js';
import { extractWithLlm } from './llm-extract.js';
import { modelFor } from '../../../services/llm/model-choice.js';
import { GRAPH_FILE, SCOPED_GRAPHS_DIR } from '../../../services/storage-versions/data-layout.js';

export const OFFLINE_MODEL = 'offline-tagger';
// The graph files' names belong to the data directory's layout (storage versions and backups read it too).
export { GRAPH_FILE, SCOPED_GRAPHS_DIR } from '../../../services/storage-versions/data-layout.js';

/** The graph a principal works on: the installation's (null) for admins, its own otherwise. */
export function graphNamespace(principal: Principal | undefined): string | null {
  if (!principal) return 'anonymous';
  return principal.admin ? null : principal.id;
}

/**
 * What every scoped service of one installation shares: the open stores (the offline tagger lives in the worker pool).
 */
class SharedParts {
  readonly backends = new Map<string | null, Promise<GraphBackend>>();
  readonly scoped = new Map<string | null, KnowledgeService>();
  closed = false;
}

/**
 * Cosine similarity from which an entity counts as a match by meaning. The
 * embedded static model scores unrelated news sentences up to about 0.7, so
 * only close descriptions pass; a sentence-transformer model separates better.
 */
const MEANING_THRESHOLD = 0.75;

export interface KnowledgeServiceOptions {
  dataDir: string;
  redisUrl: string | null;
  llm: LlmTiers;
  /** The offline tagger, run off the event loop (the extraction worker pool: its cost grows with the text). */
  tagEntities(text: string, signal: AbortSignal): Promise<Extraction>;
  /** A configured token-classification model, used instead of the offline tagger when it loads (null otherwise). */
  tokenClassifier?(): Promise<TokenClassifier | null>;
  /** The embedding model (search by meaning); entities are still stored and found by name when it fails. */
  embedder(): Promise<Embedder>;
  logger: Logger;
}

export interface ExtractRequest {
  text: string;
  types?: EntityType[];
  /** Merge into the graph (default); false only extracts. */
  store?: boolean;
  source?: { url?: string | null; title?: string | null; publishedDate?: string | null };
  /** The graph's cap on entities: an extraction that would pass it stores nothing (GraphCapReached). */
  maxEntities?: number;
}

export interface ExtractOutcome {
  entities: EntityRecord[];
  edges: EdgeRecord[];
  /** The sentence stating each edge in this text, by edgeKey. */
  evidence: Map<string, string>;
  modelUsed: string;
  stored: boolean;
}

export interface SearchHit {
  entity: EntityRecord;
  score: number;
  match: 'name' | 'alias' | 'words' | 'meaning' | 'related';
}

export class KnowledgeService {
  constructor(
    private readonly options: KnowledgeServiceOptions,
    /** Whose graph this is; null: the installation's. */
    private readonly namespace: string | null = null,
    private readonly shared = new SharedParts(),
  ) {}

  /** The service on one principal's graph (graphNamespace). */
  scoped(namespace: string | null): KnowledgeService {
    if (namespace === this.namespace) return this;
    let service = this.shared.scoped.get(namespace);
    if (!service) {
      service = new KnowledgeService(this.options, namespace, this.shared);
      this.shared.scoped.set(namespace, service);
    }
    return service;
  }

  graph(): Promise<GraphBackend> {
    if (this.shared.closed) return Promise.reject(new AppError('UNAVAILABLE', 'the knowledge graph is shut down'));
    const { backends } = this.shared;
    let opening = backends.get(this.namespace);
    if (!opening) {
      opening = this.openBackend().catch((error: unknown) => {
        backends.delete(this.namespace);
        throw new AppError(
          'UNAVAILABLE',
          `the knowledge graph store could not be opened: ${(error as Error).message}`,
          { cause: error },
        );
      });
      backends.set(this.namespace, opening);
    }
    return opening;
  }

  private openBackend(): Promise<GraphBackend> {
    const ns = this.namespace;
    if (this.options.redisUrl)
      return RedisGraphBackend.open(this.options.redisUrl, ns === null ? undefined : `quarry:kg:ns:${ns}:`);
    // Principal ids are `key:<hex>`, `group:<name>` (letters, digits, "_", ".", "-") or `anonymous`.
    const file = ns === null ? GRAPH_FILE : join(SCOPED_GRAPHS_DIR, `${ns.replace(/[^A-Za-z0-9_.-]/g, '-')}.sqlite`);
    return SqliteGraphBackend.open(join(this.options.dataDir, file));
  }

  backendKind(): 'sqlite' | 'redis' {
    return this.options.redisUrl ? 'redis' : 'sqlite';
  }

  /** Entities and relations of a text, by the language model or the offline tagger. */
  async analyze(text: string, signal: AbortSignal): Promise<{ extraction: Extraction; modelUsed: string }> {
    const client = modelFor(this.options.llm, 'entity-extraction');
    if (client) {
      try {
        const { extraction, model } = await extractWithLlm(client, text, signal);
        return { extraction, modelUsed: model };
      } catch (error) {
        if (signal.aborted) throw error;
        this.options.logger.warn(
          { err: error },
          'entity extraction by the language model failed; using the offline tagger',
        );
      }
    }
    const classifier = await this.options.tokenClassifier?.();
    if (classifier) {
      try {
        return { extraction: await classifier.extract(text, signal), modelUsed: classifier.id };
      } catch (error) {
        if (signal.aborted) throw error;
        this.options.logger.warn(
          { err: error, model: classifier.id },
          'entity tagging by the token-classification model failed; using the offline tagger',
        );
      }
    }
    return { extraction: await this.options.tagEntities(text, signal), modelUsed: OFFLINE_MODEL };
  }

  async extract(request: ExtractRequest, signal: AbortSignal): Promise<ExtractOutcome> {
    const { extraction: all, modelUsed } = await this.analyze(request.text, signal);
    const extraction = filterTypes(all, request.types);
    const now = new Date();
    const source = {
      id: sourceId(request.source?.url ?? null, request.text),
      url: request.source?.url ?? null,
      title: request.source?.title ?? null,
      date: request.source?.publishedDate ?? now.toISOString(),
    };
    const vectors = await this.vectorsFor(extraction, signal);
    if (request.store === false) {
      const preview = previewRecords(extraction, source, modelUsed, now, vectors);
      const ids = new Map(extraction.entities.map((e, i) => [e.key, preview.entities[i]!.id]));
      return {
        entities: preview.entities,
        edges: preview.edges,
        evidence: evidenceByEdge(extraction, (key) => ids.get(key)),
        modelUsed,
        stored: false,
      };
    }
    const graph = await this.graph();
    const merged = await mergeExtraction(graph, {
      extraction,
      source,
      modelUsed,
      vectors,
      now,
      ...(request.maxEntities !== undefined ? { maxEntities: request.maxEntities } : {}),
    });
    const entities = uniqueById([...merged.entities.values()]);
    return {
      entities,
      edges: merged.edges,
      evidence: evidenceByEdge(extraction, (key) => merged.entities.get(key)?.id),
      modelUsed,
      stored: true,
    };
  }

  private async vectorsFor(extraction: Extraction, signal: AbortSignal): Promise<Map<string, number[]>> {
    const vectors = new Map<string, number[]>();
    if (extraction.entities.length === 0) return vectors;
    try {
      const embedder = await this.options.embedder();
      const embedded = await embedder.embed(
        extraction.entities.map((e) => `${e.name}. ${e.description}`.slice(0, 500)),
        signal,
      );
      extraction.entities.forEach((e, i) =>
        vectors.set(
          e.key,
          Array.from(embedded[i]!, (v) => roundTo(v, 5)),
        ),
      );
    } catch (error) {
      if (signal.aborted) throw error;
      this.options.logger.warn({ err: error }, 'no entity vectors: entities stay searchable by name only');
    }
    return vectors;
  }

  /** Entities matching a query by name, alias, name words and meaning, best first. */
  async search(
    query: string,
    types: readonly EntityType[] | undefined,
    limit: number,
    signal: AbortSignal,
  ): Promise<SearchHit[]> {
    const graph = await this.graph();
    const wanted = types && types.length > 0 ? types : ENTITY_TYPES;
    const scores = new Map<string, { score: number; match: SearchHit['match'] }>();
    const offer = (id: string, score: number, match: SearchHit['match']) => {
      const current = scores.get(id);
      if (!current || score > current.score) scores.set(id, { score, match });
    };
    const exactKeys = wanted.map((type) => `${type}:${nameKey(type, query)}`);
    for (const ids of (await graph.lookupAliases(exactKeys)).values()) for (const id of ids) offer(id, 1, 'name');
    // A one-word query may be a surname, an organisation's first or last word, or its initials.
    const word = nameKey('organization', query);
    if (word && !word.includes(' ')) {
      const looseKeys = [
        `person~surname:${nameKey('person', query)}`,
        `organization~word:${word}`,
        `organization~acronym:${word.replace(/[^a-z0-9]/g, '')}`,
      ];
      for (const ids of (await graph.lookupAliases(looseKeys)).values()) for (const id of ids) offer(id, 0.85, 'alias');
    }
    const tokens = nameTokens(query);
    if (tokens.length > 0) {
      const hits = new Map<string, number>();
      for (const ids of (await graph.lookupTokens(tokens)).values())
        for (const id of ids) hits.set(id, (hits.get(id) ?? 0) + 1);
      for (const [id, count] of hits) offer(id, 0.4 + 0.35 * (count / tokens.length), 'words');
    }
    // A one-word query is a name: looked up above, not compared by meaning (an unknown word embeds as noise).
    if (tokens.length >= 2) {
      try {
        const embedder = await this.options.embedder();
        const [queryVector] = await embedder.embed([query], signal);
        for (const { id, vector } of await graph.vectors()) {
          let dot = 0;
          for (let i = 0; i < vector.length; i++) dot += vector[i]! * queryVector![i]!;
          if (dot >= MEANING_THRESHOLD) offer(id, 0.7 * dot, 'meaning');
        }
      } catch (error) {
        if (signal.aborted) throw error;
        this.options.logger.debug({ err: error }, 'knowledge search without meaning: no embedder');
      }
    }
    const ranked = [...scores].sort((a, b) => b[1].score - a[1].score || a[0].localeCompare(b[0]));
    const records = await graph.getEntities(ranked.map(([id]) => id));
    const hits: SearchHit[] = [];
    for (const [id, { score, match }] of ranked) {
      const entity = records.get(id);
      if (!entity || !wanted.includes(entity.type)) continue;
      hits.push({ entity, score: roundTo(score, 3), match });
      if (hits.length >= limit) break;
    }
    return hits;
  }

  /** Relations among and around the given entities (deduplicated, strongest first, at most `limit`). */
  async relationsAround(ids: readonly string[], limit = 200): Promise<EdgeRecord[]> {
    const graph = await this.graph();
    const seen = new Map<string, EdgeRecord>();
    for (const id of ids)
      for (const edge of await graph.edgesOf(id)) seen.set(`${edge.from}|${edge.type}|${edge.to}`, edge);
    return [...seen.values()]
      .sort((a, b) => b.sources.length - a.sources.length || a.from.localeCompare(b.from))
      .slice(0, limit);
  }

  async entity(id: string): Promise<{ entity: EntityRecord; edges: EdgeRecord[] } | null> {
    const graph = await this.graph();
    const entity = (await graph.getEntities([id])).get(id);
    if (!entity) return null;
    return { entity, edges: await graph.edgesOf(id) };
  }

  async entities(ids: readonly string[]): Promise<Map<string, EntityRecord>> {
    return (await this.graph()).getEntities(ids);
  }

  /** The most connected entities (of the given types) and the edges among them. */
  async subgraph(
    types: readonly EntityType[] | undefined,
    limit: number,
  ): Promise<{ nodes: EntityRecord[]; edges: EdgeRecord[] }> {
    const graph = await this.graph();
    const nodes = await graph.topEntities({ ...(types && types.length > 0 ? { types } : {}), limit });
    const ids = new Set(nodes.map((n) => n.id));
    const edges = new Map<string, EdgeRecord>();
    for (const node of nodes)
      for (const edge of await graph.edgesOf(node.id))
        if (ids.has(edge.from) && ids.has(edge.to)) edges.set(`${edge.from}|${edge.type}|${edge.to}`, edge);
    return { nodes, edges: [...edges.values()] };
  }

  async remove(id: string): Promise<boolean> {
    return deleteEntity(await this.graph(), id);
  }

  async close(): Promise<void> {
    this.shared.closed = true;
    const pending = [...this.shared.backends.values()];
    this.shared.backends.clear();
    await Promise.all(pending.map((opening) => opening.then((b) => b.close()).catch(() => undefined)));
  }
}

function filterTypes(extraction: Extraction, types: readonly EntityType[] | undefined): Extraction {
  if (!types || types.length === 0) return extraction;
  const entities = extraction.entities.filter((e) => types.includes(e.type));
  const keys = new Set(entities.map((e) => e.key));
  return { entities, relations: extraction.relations.filter((r) => keys.has(r.from) && keys.has(r.to)) };
}

function uniqueById(records: EntityRecord[]): EntityRecord[] {
  const seen = new Map<string, EntityRecord>();
  for (const record of records) seen.set(record.id, record);
  return [...seen.values()];
}

/** What extraction would store, without touching the graph (store: false). */
function previewRecords(
  extraction: Extraction,
  source: { id: string; url: string | null; title: string | null; date: string },
  modelUsed: string,
  now: Date,
  vectors: Map<string, number[]>,
): { entities: EntityRecord[]; edges: EdgeRecord[] } {
  const at = now.toISOString();
  const idOf = new Map<string, string>();
  const entities = extraction.entities.map((e): EntityRecord => {
    const id = entityId(e.type, e.key.slice(e.type.length + 1));
    idOf.set(e.key, id);
    const aliases = [...new Set([e.name, ...e.mentions, ...e.merges.map((m) => m.alias)])];
    return {
      id,
      type: e.type,
      name: e.name,
      description: e.description,
      aliases,
      merges: e.merges,
      aliasKeys: aliasKeys(e.type, aliases),
      sources: [{ ...source, snippet: e.snippet }],
      sourceCount: 1,
      titles: e.title ? { [e.title]: 1 } : {},
      topics: Object.fromEntries(e.cooccurring.map((t) => [t, 1])),
      degree: extraction.relations.filter((r) => r.from === e.key || r.to === e.key).length,
      ...(vectors.has(e.key) ? { vector: vectors.get(e.key)! } : {}),
      modelUsed,
      createdAt: at,
      updatedAt: at,
      version: 0,
    };
  });
  const edges = extraction.relations.map(
    (r): EdgeRecord => ({
      from: idOf.get(r.from)!,
      to: idOf.get(r.to)!,
      type: r.type,
      sources: [source.id],
      cues: [r.cue],
      createdAt: at,
      updatedAt: at,
      version: 0,
    }),
  );
  return { entities, edges };
}

/** The evidence of each relation, keyed as its edge is (entity ids; a symmetric relation from the smaller id). */
function evidenceByEdge(extraction: Extraction, idOf: (key: string) => string | undefined): Map<string, string> {
  const evidence = new Map<string, string>();
  for (const relation of extraction.relations) {
    let from = idOf(relation.from);
    let to = idOf(relation.to);
    if (!from || !to || !relation.evidence) continue;
    if (SYMMETRIC_RELATIONS.has(relation.type) && from > to) [from, to] = [to, from];
    const key = edgeKey({ from, type: relation.type, to });
    if (!evidence.has(key)) evidence.set(key, relation.evidence);
  }
  return evidence;
}
