/**
 * A promise-returning sqlite3 connection, for the SQLite files Quarry opens
 * itself (not through keyv): the knowledge graph's files, schema markers, backups.
 */
import sqlite3 from 'sqlite3';

export type SqliteRow = Record<string, unknown>;

export class SqliteConnection {
  private constructor(private readonly db: sqlite3.Database) {}

  static open(path: string, mode: 'read' | 'write'): Promise<SqliteConnection> {
    const flags = mode === 'read' ? sqlite3.OPEN_READONLY : sqlite3.OPEN_READWRITE | sqlite3.OPEN_CREATE;
    return new Promise((resolve, reject) => {
      const db: sqlite3.Database = new sqlite3.Database(path, flags, (error) =>
        error ? reject(error) : resolve(new SqliteConnection(db)),
      );
    });
  }

  run(sql: string, params: unknown[] = []): Promise<void> {
    return new Promise((resolve, reject) => this.db.run(sql, params, (error) => (error ? reject(error) : resolve())));
  }

  all(sql: string, params: unknown[] = []): Promise<SqliteRow[]> {
    return new Promise((resolve, reject) =>
      this.db.all(sql, params, (error, rows: SqliteRow[]) => (error ? reject(error) : resolve(rows))),
    );
  }

  exec(sql: string): Promise<void> {
    return new Promise((resolve, reject) => this.db.exec(sql, (error) => (error ? reject(error) : resolve())));
  }

  close(): Promise<void> {
    return new Promise((resolve, reject) => this.db.close((error) => (error ? reject(error) : resolve())));
  }
}
