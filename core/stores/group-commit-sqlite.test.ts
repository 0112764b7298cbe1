import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Keyv } from 'keyv';
import { afterEach, describe, expect, it } from 'vitest';
import { GroupCommitSqlite } from './group-commit-sqlite.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function databasePath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'quarry-group-commit-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, 'records.sqlite');
}

function open(path: string): { store: GroupCommitSqlite; records: Keyv } {
  const store = new GroupCommitSqlite({ uri: `sqlite://${path}` });
  const records = new Keyv({ store, namespace: 'records', throwOnErrors: true });
  cleanups.push(() => store.disconnect().catch(() => undefined));
  return { store, records };
}

describe('the record store commits sets in groups', () => {
  it('commits 200 sets asked at once in a few commits, each readable once its set resolved', async () => {
    const { store, records } = open(databasePath());
    await records.set('warm', 1);
    const before = store.setCommits;
    await Promise.all(Array.from({ length: 200 }, (_, i) => records.set(`page:${i}`, { i })));
    expect(store.setCommits - before).toBeLessThanOrEqual(2);
    const values = await records.getMany(Array.from({ length: 200 }, (_, i) => `page:${i}`));
    expect(values).toEqual(Array.from({ length: 200 }, (_, i) => ({ i })));
  });

  it('sets asked while a commit runs go together in the next one', async () => {
    const { store } = open(databasePath());
    const first = store.set('a', '1');
    // The first commit is sent in the next turn of the event loop; these are asked while it runs.
    await new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)));
    const later = Array.from({ length: 50 }, (_, i) => store.set(`b:${i}`, String(i)));
    await Promise.all([first, ...later]);
    expect(store.setCommits).toBe(2);
    expect(await store.get('b:49')).toBe('49');
  });

  it('keeps the order of statements: a read sees a set asked before it, a delete is not overtaken', async () => {
    const { store } = open(databasePath());
    // sqlite3 runs statements sent together in either order, so one try would pass by luck about half the time.
    const outcomes: string[] = [];
    for (let i = 0; i < 100; i++) {
      void store.set(`seen:${i}`, 'yes');
      const seen = await store.get(`seen:${i}`);
      void store.set(`gone:${i}`, 'soon');
      const deleted = await store.delete(`gone:${i}`);
      const after = await store.get(`gone:${i}`);
      outcomes.push(`${seen} ${deleted} ${after}`);
    }
    expect(new Set(outcomes)).toEqual(new Set(['yes true undefined']));
    await Promise.all([store.set('twice', '1'), store.set('twice', '2')]);
    expect(await store.get('twice')).toBe('2');
  });

  it('writes what was asked before it closed', async () => {
    const path = databasePath();
    const { store } = open(path);
    const pending = Array.from({ length: 20 }, (_, i) => store.set(`k:${i}`, String(i)));
    await store.disconnect();
    await Promise.all(pending);
    const reopened = open(path).store;
    expect(await reopened.get('k:19')).toBe('19');
  });

  it('rejects every set of a commit that fails, and the next commit still runs', async () => {
    const { store, records } = open(databasePath());
    await records.set('before', 1);
    await store.query('DROP TABLE keyv');
    const failed = await Promise.allSettled([records.set('x', 1), records.set('y', 2)]);
    expect(failed.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
    await store.query('CREATE TABLE keyv(key VARCHAR(255) PRIMARY KEY, value TEXT)');
    await records.set('after', 3);
    expect(await records.get('after')).toBe(3);
  });
});
