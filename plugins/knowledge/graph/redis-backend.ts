/**
 * The shared graph store on Redis, for several Quarry instances on one
 * graph. Keys under a prefix (default "quarry:kg:"):
 *
 *   ent:<id>        JSON entity record          edge:<from|type|to>  JSON edge record
 *   adj:<id>        set of edge keys at <id>    alias:<key>          set of entity ids
 *   tok:<word>      set of entity ids           rank, rank:<type>    sorted sets by degree
 *   vec             hash id → vector (JSON)     entity-count         entities, kept by commits that add or delete some
 *
 * A commit WATCHes the records it read, checks their versions and applies
 * everything in one MULTI/EXEC: atomic, and refused (false) when another
 * instance changed one of them in between, so the writer retries on fresh
 * data. Durability is the server's (appendonly yes with appendfsync
 * everysec or always, recommended in docs/knowledge.md).
 */
import { createClient, WatchError } from '@redis/client';
import { entityTokens } from './sqlite-backend.js';
import { assertWithinCap, entityGrowth } from './graph-cap.js';
import {
  edgeKey,
  type EdgeRecord,
  type EntityRecord,
  type GraphBackend,
  type GraphWrite,
  type TopOptions,
} from './types.js';

function connect(url: string) {
  const client = createClient({
    url,
    socket: { connectTimeout: 5000, reconnectStrategy: (retries: number) => Math.min(retries * 100, 2000) },
  });
  // Errors surface on the commands that fail; the client reconnects by itself.
  client.on('error', () => undefined);
  return client;
}

type Client = ReturnType<typeof connect>;

const rankScore = (entity: EntityRecord) => entity.degree + Math.min(entity.sourceCount, 999_999) / 1_000_000;

export class RedisGraphBackend implements GraphBackend {
  readonly kind = 'redis' as const;
  private tail: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly reader: Client,
    private readonly writer: Client,
    private readonly prefix: string,
  ) {}

  static async open(url: string, prefix = 'quarry:kg:'): Promise<RedisGraphBackend> {
    const reader = connect(url);
    const writer = connect(url);
    await Promise.all([reader.connect(), writer.connect()]);
    return new RedisGraphBackend(reader, writer, prefix);
  }

  private key(...parts: string[]): string {
    return this.prefix + parts.join(':');
  }

  async getEntities(ids: readonly string[]): Promise<Map<string, EntityRecord>> {
    const found = new Map<string, EntityRecord>();
    if (ids.length === 0) return found;
    const values = await this.reader.mGet(ids.map((id) => this.key('ent', id)));
    values.forEach((value) => {
      if (typeof value === 'string') {
        const entity = JSON.parse(value) as EntityRecord;
        found.set(entity.id, entity);
      }
    });
    return found;
  }

  async getEdges(keys: readonly string[]): Promise<Map<string, EdgeRecord>> {
    const found = new Map<string, EdgeRecord>();
    if (keys.length === 0) return found;
    const values = await this.reader.mGet(keys.map((k) => this.key('edge', k)));
    values.forEach((value, i) => {
      if (typeof value === 'string') found.set(keys[i]!, JSON.parse(value) as EdgeRecord);
    });
    return found;
  }

  lookupAliases(keys: readonly string[]): Promise<Map<string, string[]>> {
    return this.members('alias', keys);
  }

  lookupTokens(tokens: readonly string[]): Promise<Map<string, string[]>> {
    return this.members('tok', tokens);
  }

  private async members(kind: string, values: readonly string[]): Promise<Map<string, string[]>> {
    const found = new Map<string, string[]>();
    const sets = await Promise.all(values.map((value) => this.reader.sMembers(this.key(kind, value))));
    values.forEach((value, i) => {
      if (sets[i]!.length > 0) found.set(value, [...sets[i]!].sort());
    });
    return found;
  }

  async edgesOf(id: string): Promise<EdgeRecord[]> {
    const keys = await this.reader.sMembers(this.key('adj', id));
    return [...(await this.getEdges(keys)).values()];
  }

  async topEntities(options: TopOptions): Promise<EntityRecord[]> {
    const sets =
      options.types && options.types.length > 0 ? options.types.map((t) => this.key('rank', t)) : [this.key('rank')];
    const ranked: Array<{ id: string; score: number }> = [];
    for (const set of sets) {
      const entries = await this.reader.zRangeWithScores(set, 0, options.limit - 1, { REV: true });
      for (const entry of entries) ranked.push({ id: String(entry.value), score: entry.score });
    }
    ranked.sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
    const ids = ranked.slice(0, options.limit).map((r) => r.id);
    const entities = await this.getEntities(ids);
    return ids.map((id) => entities.get(id)).filter((e): e is EntityRecord => e !== undefined);
  }

  async vectors(): Promise<Array<{ id: string; vector: number[] }>> {
    const all = await this.reader.hGetAll(this.key('vec'));
    return Object.entries(all).map(([id, vector]) => ({ id, vector: JSON.parse(vector) as number[] }));
  }

  async counts(): Promise<{ entities: number; edges: number }> {
    const [entities, edges] = await Promise.all([
      this.reader.zCard(this.key('rank')),
      this.reader.get(this.key('edge-count')),
    ]);
    return { entities, edges: Number(edges ?? 0) };
  }

  commit(write: GraphWrite): Promise<boolean> {
    const run = this.tail.then(() => this.commitNow(write));
    this.tail = run.catch(() => undefined);
    return run;
  }

  private async commitNow(write: GraphWrite): Promise<boolean> {
    const client = this.writer;
    const entityKeys = [...write.expectEntities.keys()].map((id) => this.key('ent', id));
    const edgeKeys = [...write.expectEdges.keys()].map((k) => this.key('edge', k));
    const watched = [...entityKeys, ...edgeKeys];
    // A write that creates or deletes entities also watches the entity count (the cap's measure), so it is checked and
    // changed atomically.
    const growth = entityGrowth(write);
    const countKey = this.key('entity-count');
    if (watched.length > 0 || growth !== 0) await client.watch(growth !== 0 ? [...watched, countKey] : watched);
    const current = watched.length > 0 ? await client.mGet(watched) : [];
    const expected = [...write.expectEntities.values(), ...write.expectEdges.values()];
    const old = new Map<string, EntityRecord>();
    for (let i = 0; i < watched.length; i++) {
      const value = current[i];
      const version = typeof value === 'string' ? (JSON.parse(value) as { version: number }).version : null;
      if (version !== expected[i]) {
        await client.unwatch();
        return false;
      }
      if (i < entityKeys.length && typeof value === 'string') {
        const entity = JSON.parse(value) as EntityRecord;
        old.set(entity.id, entity);
      }
    }
    let count: number | null = null;
    if (growth !== 0) {
      const stored = await client.get(countKey);
      // Graphs written before the count existed: their rank set counts every entity (watched, so a concurrent first
      // count is caught).
      count = stored === null ? await client.zCard(this.key('rank')) : Number(stored);
      try {
        assertWithinCap(write, count);
      } catch (error) {
        await client.unwatch();
        throw error;
      }
    }
    const multi = client.multi();
    if (count !== null) multi.set(countKey, String(count + growth));
    for (const entity of write.deleteEntities) {
      const before = old.get(entity.id) ?? entity;
      multi.del(this.key('ent', entity.id));
      multi.del(this.key('adj', entity.id));
      multi.zRem(this.key('rank'), entity.id);
      multi.zRem(this.key('rank', before.type), entity.id);
      multi.hDel(this.key('vec'), entity.id);
      for (const alias of before.aliasKeys) multi.sRem(this.key('alias', alias), entity.id);
      for (const token of entityTokens(before)) multi.sRem(this.key('tok', token), entity.id);
    }
    for (const edge of write.deleteEdges) {
      const key = edgeKey(edge);
      multi.del(this.key('edge', key));
      multi.sRem(this.key('adj', edge.from), key);
      multi.sRem(this.key('adj', edge.to), key);
      multi.decr(this.key('edge-count'));
    }
    for (const entity of write.putEntities) {
      const before = old.get(entity.id);
      multi.set(this.key('ent', entity.id), JSON.stringify(entity));
      if (before && before.type !== entity.type) multi.zRem(this.key('rank', before.type), entity.id);
      multi.zAdd(this.key('rank'), { score: rankScore(entity), value: entity.id });
      multi.zAdd(this.key('rank', entity.type), { score: rankScore(entity), value: entity.id });
      if (entity.vector) multi.hSet(this.key('vec'), entity.id, JSON.stringify(entity.vector));
      const aliasKeys = new Set(entity.aliasKeys);
      for (const alias of before?.aliasKeys ?? [])
        if (!aliasKeys.has(alias)) multi.sRem(this.key('alias', alias), entity.id);
      for (const alias of aliasKeys) multi.sAdd(this.key('alias', alias), entity.id);
      const tokens = new Set(entityTokens(entity));
      for (const token of before ? entityTokens(before) : [])
        if (!tokens.has(token)) multi.sRem(this.key('tok', token), entity.id);
      for (const token of tokens) multi.sAdd(this.key('tok', token), entity.id);
    }
    for (const edge of write.putEdges) {
      const key = edgeKey(edge);
      multi.set(this.key('edge', key), JSON.stringify(edge));
      multi.sAdd(this.key('adj', edge.from), key);
      multi.sAdd(this.key('adj', edge.to), key);
      if (write.expectEdges.get(key) === null) multi.incr(this.key('edge-count'));
    }
    try {
      await multi.exec();
      return true;
    } catch (error) {
      if (error instanceof WatchError) return false;
      throw error;
    }
  }

  async close(): Promise<void> {
    await this.tail;
    await Promise.allSettled([this.reader.close(), this.writer.close()]);
  }
}
