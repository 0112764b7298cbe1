/**
 * The record store's SQLite adapter with group commit. @keyv/sqlite runs every set() as its own autocommitted
 * statement, and under synchronous=FULL each commit waits for an fsync of the WAL: a crawl writing two records per
 * page spent more time committing than reading. Here the sets asked while a commit is running wait for it and then
 * go as one multi-row upsert — one statement, one commit, one fsync — so a busy process commits in batches and an
 * idle one still commits each set at once. Each set() still resolves only after the commit that holds it, so a
 * resolved set survives a crash exactly as before; a failed commit rejects every set in it (none of them was written).
 *
 * Order is kept: any other statement (a get, a delete, a query) first sends the sets asked before it, and statements
 * run one after another in the order they were sent, so a read never misses a set asked earlier and a delete is never
 * overtaken by an older set. The queue is ours because sqlite3 hands each statement to the thread pool on its own:
 * two statements sent together on one connection may run in either order.
 */
import KeyvSqlite from '@keyv/sqlite';

type KeyvSqliteOptions = ConstructorParameters<typeof KeyvSqlite>[0];
type Query = (sql: string, ...parameters: unknown[]) => Promise<unknown>;

interface PendingSet {
  key: string;
  value: unknown;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** Rows per statement: two parameters each, well under SQLite's limit on a statement's parameters. */
const MAX_ROWS_PER_STATEMENT = 500;

export class GroupCommitSqlite extends KeyvSqlite {
  private pending: PendingSet[] = [];
  private scheduled = false;
  private commitsSent = 0;
  /** Commits sent and not yet answered: sets wait while there are any, and closing waits for them. */
  private readonly commits = new Set<Promise<void>>();
  private readonly send: Query;
  /** The last statement sent; the next one starts when it has finished. */
  private tail: Promise<unknown> = Promise.resolve();

  constructor(options: KeyvSqliteOptions) {
    super(options);
    // The adapter assigns its query function in its constructor; every statement it runs goes through it.
    const send = this.query as Query;
    this.send = (sql, ...parameters) => this.inTurn(() => send(sql, ...parameters));
    this.query = (async (sql: string, ...parameters: unknown[]) => {
      this.sendPending();
      return this.send(sql, ...parameters);
    }) as typeof this.query;
  }

  /** Runs a statement once every statement sent before it has finished, whether it succeeded or not. */
  private inTurn<T>(run: () => Promise<T>): Promise<T> {
    const result = this.tail.then(run, run);
    this.tail = result.catch(() => undefined);
    return result;
  }

  override async set(key: string, value: unknown): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ key, value, resolve, reject });
      if (this.commits.size === 0 && !this.scheduled) {
        // Sets asked in the same turn of the event loop share the first commit too.
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          if (this.commits.size === 0) this.sendPending();
        });
      }
    });
  }

  /** Sends every set asked so far, as few statements as the parameter limit allows. */
  private sendPending(): void {
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0, MAX_ROWS_PER_STATEMENT);
      // One statement may not name a key twice usefully: the last value asked is the one kept.
      const rows = new Map<string, unknown>();
      for (const entry of batch) {
        rows.delete(entry.key);
        rows.set(entry.key, entry.value);
      }
      const values = Array.from(rows.values(), () => '(?, ?)').join(', ');
      const parameters = Array.from(rows, ([key, value]) => [key, value]).flat();
      this.commitsSent++;
      const commit: Promise<void> = this.send(
        `INSERT INTO ${this.opts.table} (key, value) VALUES ${values} ON CONFLICT(key) DO UPDATE SET value=excluded.value`,
        ...parameters,
      ).then(
        () => this.settle(commit, batch, null),
        (error: unknown) => this.settle(commit, batch, error ?? new Error('SQLite commit failed')),
      );
      this.commits.add(commit);
    }
  }

  /** Commits of sets sent so far (each set is in exactly one). */
  get setCommits(): number {
    return this.commitsSent;
  }

  /** Commits what was asked, then closes the connection. */
  override async disconnect(): Promise<void> {
    this.sendPending();
    while (this.commits.size > 0) await Promise.allSettled([...this.commits]);
    await this.tail;
    await super.disconnect();
  }

  private settle(commit: Promise<void>, batch: PendingSet[], error: unknown): void {
    this.commits.delete(commit);
    for (const entry of batch) {
      if (error === null) entry.resolve();
      else entry.reject(error);
    }
    // What was asked during this commit goes now, as one statement.
    if (this.commits.size === 0) this.sendPending();
  }
}
