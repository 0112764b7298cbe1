/**
 * The knowledge graph as stored: entity and edge records and the backend
 * contract both stores (SQLite, Redis) implement. Records carry a version;
 * a commit names the versions it read and fails, changing nothing, when any
 * of them moved (optimistic concurrency, so several instances can share the
 * Redis graph). Merge logic lives above the backends (graph-writer.ts).
 */
import type { EntityType, MergeRule, RelationType } from '../../../services/entities/types.js';

export interface SourceRef {
  /** Stable id of the source: a hash of its URL, or of its text when it has none. */
  id: string;
  url: string | null;
  title: string | null;
  /** Publication date (ISO 8601) when known, else when it was extracted. */
  date: string;
  /** The first sentence of the source that mentions the entity. */
  snippet: string;
}

export interface EntityRecord {
  id: string;
  type: EntityType;
  name: string;
  description: string;
  /** Surface forms seen, in first-seen order. */
  aliases: string[];
  /** How each alias was merged into this entity. */
  merges: Array<{ alias: string; rule: MergeRule }>;
  /** Index keys registered for this entity (alias index), to remove them with it. */
  aliasKeys: string[];
  /** Distinct sources, newest last (the most recent 50 kept; sourceCount counts all). */
  sources: SourceRef[];
  sourceCount: number;
  /** Person titles seen ("CEO", "planetary scientist"), with counts. */
  titles: Record<string, number>;
  /** Names of entities mentioned in the same sentences, with counts (a person's expertise). */
  topics: Record<string, number>;
  /** Number of distinct edges touching the entity. */
  degree: number;
  /** Unit vector of name and description (search by meaning), absent when no embedder answered. */
  vector?: number[];
  /** Which extractor produced the entity first ("offline-tagger" or the LLM's model name). */
  modelUsed: string;
  createdAt: string;
  updatedAt: string;
  version: number;
}

export interface EdgeRecord {
  from: string;
  to: string;
  type: RelationType;
  /** Distinct sources that state the relation; the weight is their number. */
  sources: string[];
  /** Cue words seen (the most recent 10). */
  cues: string[];
  createdAt: string;
  updatedAt: string;
  version: number;
}

export function edgeKey(edge: { from: string; type: string; to: string }): string {
  return `${edge.from}|${edge.type}|${edge.to}`;
}

export interface GraphWrite {
  /** Versions the writer read (null: it read that the record does not exist). */
  expectEntities: Map<string, number | null>;
  expectEdges: Map<string, number | null>;
  putEntities: EntityRecord[];
  deleteEntities: EntityRecord[];
  putEdges: EdgeRecord[];
  deleteEdges: EdgeRecord[];
  /** When set, the commit throws GraphCapReached (graph-cap.ts) rather than take the graph past this many entities. */
  maxEntities?: number;
}

export interface TopOptions {
  types?: readonly EntityType[];
  limit: number;
}

export interface GraphBackend {
  readonly kind: 'sqlite' | 'redis';
  getEntities(ids: readonly string[]): Promise<Map<string, EntityRecord>>;
  getEdges(keys: readonly string[]): Promise<Map<string, EdgeRecord>>;
  /** Entity ids registered under each alias key. */
  lookupAliases(keys: readonly string[]): Promise<Map<string, string[]>>;
  /** Entity ids whose names contain each token. */
  lookupTokens(tokens: readonly string[]): Promise<Map<string, string[]>>;
  /** Every edge touching the entity, both directions. */
  edgesOf(id: string): Promise<EdgeRecord[]>;
  /** Most connected first (degree, then sources, then id). */
  topEntities(options: TopOptions): Promise<EntityRecord[]>;
  /** Every entity id with its vector (search by meaning scans them). */
  vectors(): Promise<Array<{ id: string; vector: number[] }>>;
  counts(): Promise<{ entities: number; edges: number }>;
  /** Applies the write atomically when every expected version still holds; false (nothing written) otherwise. */
  commit(write: GraphWrite): Promise<boolean>;
  close(): Promise<void>;
}
