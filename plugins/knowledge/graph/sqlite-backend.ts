/**
 * The embedded graph store: its own SQLite file under the data directory
 * (knowledge-graph.sqlite), not the keyv record store, because the graph
 * needs secondary indexes (neighbours by either end, type and degree, alias
 * and name-word lookups) and multi-row transactions, which a key-value API
 * does not give. WAL with synchronous=FULL: a commit whose promise resolved
 * is on disk and survives SIGKILL and power loss.
 *
 * One writer connection, commits serialised in-process (a data directory
 * belongs to one process); reads go through a second connection and so only
 * ever see committed transactions.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { nameTokens } from '../../../services/entities/names.js';
import { SqliteConnection } from '../../../services/storage-versions/sqlite-connection.js';
import { bringGraphFileToCurrent } from '../../../services/storage-versions/stored-data.js';
import { assertWithinCap, entityGrowth } from './graph-cap.js';
import {
  type EdgeRecord,
  type EntityRecord,
  edgeKey,
  type GraphBackend,
  type GraphWrite,
  type TopOptions,
} from './types.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS entities (id TEXT PRIMARY KEY, type TEXT NOT NULL, degree INTEGER NOT NULL, sources INTEGER NOT NULL, version INTEGER NOT NULL, doc TEXT NOT NULL, vector TEXT);
CREATE INDEX IF NOT EXISTS entities_rank ON entities (degree DESC, sources DESC, id);
CREATE INDEX IF NOT EXISTS entities_type_rank ON entities (type, degree DESC, sources DESC, id);
CREATE TABLE IF NOT EXISTS edges (key TEXT PRIMARY KEY, from_id TEXT NOT NULL, to_id TEXT NOT NULL, version INTEGER NOT NULL, doc TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS edges_from ON edges (from_id);
CREATE INDEX IF NOT EXISTS edges_to ON edges (to_id);
CREATE TABLE IF NOT EXISTS aliases (key TEXT NOT NULL, entity_id TEXT NOT NULL, PRIMARY KEY (key, entity_id)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS aliases_entity ON aliases (entity_id);
CREATE TABLE IF NOT EXISTS tokens (token TEXT NOT NULL, entity_id TEXT NOT NULL, PRIMARY KEY (token, entity_id)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS tokens_entity ON tokens (entity_id);
`;

const placeholders = (n: number) => Array.from({ length: n }, () => '?').join(',');

/** Index words of an entity: its name and aliases. */
export function entityTokens(entity: Pick<EntityRecord, 'name' | 'aliases'>): string[] {
  return [...new Set([entity.name, ...entity.aliases].flatMap(nameTokens))];
}

export class SqliteGraphBackend implements GraphBackend {
  readonly kind = 'sqlite' as const;
  private tail: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly writer: SqliteConnection,
    private readonly reader: SqliteConnection,
  ) {}

  static async open(path: string): Promise<SqliteGraphBackend> {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    await bringGraphFileToCurrent(path);
    const writer = await SqliteConnection.open(path, 'write');
    await writer.exec('PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA busy_timeout=10000;');
    await writer.exec(SCHEMA);
    const reader = await SqliteConnection.open(path, 'read');
    await reader.exec('PRAGMA busy_timeout=10000;');
    return new SqliteGraphBackend(writer, reader);
  }

  async getEntities(ids: readonly string[]): Promise<Map<string, EntityRecord>> {
    const found = new Map<string, EntityRecord>();
    for (let i = 0; i < ids.length; i += 500) {
      const part = ids.slice(i, i + 500);
      const rows = await this.reader.all(`SELECT doc FROM entities WHERE id IN (${placeholders(part.length)})`, part);
      for (const row of rows) {
        const entity = JSON.parse(row.doc as string) as EntityRecord;
        found.set(entity.id, entity);
      }
    }
    return found;
  }

  async getEdges(keys: readonly string[]): Promise<Map<string, EdgeRecord>> {
    const found = new Map<string, EdgeRecord>();
    for (let i = 0; i < keys.length; i += 500) {
      const part = keys.slice(i, i + 500);
      for (const row of await this.reader.all(
        `SELECT key, doc FROM edges WHERE key IN (${placeholders(part.length)})`,
        part,
      )) {
        found.set(row.key as string, JSON.parse(row.doc as string) as EdgeRecord);
      }
    }
    return found;
  }

  lookupAliases(keys: readonly string[]): Promise<Map<string, string[]>> {
    return this.lookup('aliases', 'key', keys);
  }

  lookupTokens(tokens: readonly string[]): Promise<Map<string, string[]>> {
    return this.lookup('tokens', 'token', tokens);
  }

  private async lookup(table: string, column: string, values: readonly string[]): Promise<Map<string, string[]>> {
    const found = new Map<string, string[]>();
    if (values.length === 0) return found;
    const rows = await this.reader.all(
      `SELECT ${column} AS k, entity_id FROM ${table} WHERE ${column} IN (${placeholders(values.length)}) ORDER BY entity_id`,
      [...values],
    );
    for (const row of rows)
      found.set(row.k as string, [...(found.get(row.k as string) ?? []), row.entity_id as string]);
    return found;
  }

  async edgesOf(id: string): Promise<EdgeRecord[]> {
    const rows = await this.reader.all(
      'SELECT doc FROM edges WHERE from_id = ? UNION ALL SELECT doc FROM edges WHERE to_id = ? AND from_id <> ?',
      [id, id, id],
    );
    return rows.map((row) => JSON.parse(row.doc as string) as EdgeRecord);
  }

  async topEntities(options: TopOptions): Promise<EntityRecord[]> {
    const types = options.types ?? [];
    const where = types.length > 0 ? `WHERE type IN (${placeholders(types.length)})` : '';
    const rows = await this.reader.all(
      `SELECT doc FROM entities ${where} ORDER BY degree DESC, sources DESC, id LIMIT ?`,
      [...types, options.limit],
    );
    return rows.map((row) => JSON.parse(row.doc as string) as EntityRecord);
  }

  async vectors(): Promise<Array<{ id: string; vector: number[] }>> {
    const rows = await this.reader.all('SELECT id, vector FROM entities WHERE vector IS NOT NULL');
    return rows.map((row) => ({ id: row.id as string, vector: JSON.parse(row.vector as string) as number[] }));
  }

  async counts(): Promise<{ entities: number; edges: number }> {
    const [entities] = await this.reader.all('SELECT COUNT(*) AS n FROM entities');
    const [edges] = await this.reader.all('SELECT COUNT(*) AS n FROM edges');
    return { entities: Number(entities?.n ?? 0), edges: Number(edges?.n ?? 0) };
  }

  commit(write: GraphWrite): Promise<boolean> {
    const run = this.tail.then(() => this.commitNow(write));
    this.tail = run.catch(() => undefined);
    return run;
  }

  private async commitNow(write: GraphWrite): Promise<boolean> {
    const db = this.writer;
    await db.run('BEGIN IMMEDIATE');
    try {
      if (!(await this.versionsHold(write))) {
        await db.run('ROLLBACK');
        return false;
      }
      if (write.maxEntities !== undefined && entityGrowth(write) > 0) {
        const [row] = await db.all('SELECT COUNT(*) AS n FROM entities');
        assertWithinCap(write, Number(row?.n ?? 0));
      }
      for (const entity of write.deleteEntities) {
        await db.run('DELETE FROM entities WHERE id = ?', [entity.id]);
        await db.run('DELETE FROM aliases WHERE entity_id = ?', [entity.id]);
        await db.run('DELETE FROM tokens WHERE entity_id = ?', [entity.id]);
      }
      for (const edge of write.deleteEdges) await db.run('DELETE FROM edges WHERE key = ?', [edgeKey(edge)]);
      for (const entity of write.putEntities) {
        const vector = entity.vector;
        await db.run(
          'INSERT OR REPLACE INTO entities (id, type, degree, sources, version, doc, vector) VALUES (?, ?, ' +
            '?, ?, ?, ?, ?)',
          [
            entity.id,
            entity.type,
            entity.degree,
            entity.sourceCount,
            entity.version,
            JSON.stringify(entity),
            vector ? JSON.stringify(vector) : null,
          ],
        );
        await db.run('DELETE FROM aliases WHERE entity_id = ?', [entity.id]);
        for (const key of entity.aliasKeys)
          await db.run('INSERT OR IGNORE INTO aliases (key, entity_id) VALUES (?, ?)', [key, entity.id]);
        await db.run('DELETE FROM tokens WHERE entity_id = ?', [entity.id]);
        for (const token of entityTokens(entity))
          await db.run('INSERT OR IGNORE INTO tokens (token, entity_id) VALUES (?, ?)', [token, entity.id]);
      }
      for (const edge of write.putEdges) {
        await db.run('INSERT OR REPLACE INTO edges (key, from_id, to_id, version, doc) VALUES (?, ?, ?, ?, ?)', [
          edgeKey(edge),
          edge.from,
          edge.to,
          edge.version,
          JSON.stringify(edge),
        ]);
      }
      await db.run('COMMIT');
      return true;
    } catch (error) {
      await db.run('ROLLBACK').catch(() => undefined);
      throw error;
    }
  }

  private async versionsHold(write: GraphWrite): Promise<boolean> {
    const check = async (table: 'entities' | 'edges', column: string, expected: Map<string, number | null>) => {
      const ids = [...expected.keys()];
      const current = new Map<string, number>();
      for (let i = 0; i < ids.length; i += 500) {
        const part = ids.slice(i, i + 500);
        for (const row of await this.writer.all(
          `SELECT ${column} AS k, version FROM ${table} WHERE ${column} IN (${placeholders(part.length)})`,
          part,
        )) {
          current.set(row.k as string, Number(row.version));
        }
      }
      for (const [id, version] of expected) if ((current.get(id) ?? null) !== version) return false;
      return true;
    };
    return (await check('entities', 'id', write.expectEntities)) && (await check('edges', 'key', write.expectEdges));
  }

  async close(): Promise<void> {
    await this.tail;
    await Promise.allSettled([this.reader.close(), this.writer.close()]);
  }
}
