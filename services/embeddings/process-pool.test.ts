import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, it } from 'vitest';
import { ProcessPool } from './process-pool.js';
import { until } from '../../test/sandbox/until.js';

const worker = fileURLToPath(new URL('./fixtures/stuck-worker.mjs', import.meta.url));
let pool: ProcessPool<{ kind: string; value?: string; started?: string }, string> | null = null;

afterEach(async () => {
  await pool?.close();
  pool = null;
});

it('abandons a task whose process is wedged at its time limit, then serves the next one', async () => {
  pool = new ProcessPool({ filename: worker, name: 'stuck', processes: 1 });
  await expect(pool.run({ kind: 'echo', value: 'warm' }, { timeoutMs: 20_000 })).resolves.toBe('warm');
  const started = Date.now();
  await expect(pool.run({ kind: 'spin' }, { timeoutMs: 500 })).rejects.toMatchObject({ code: 'TIMEOUT' });
  expect(Date.now() - started).toBeLessThan(1500);
  await expect(pool.run({ kind: 'echo', value: 'after' }, { timeoutMs: 20_000 })).resolves.toBe('after');
});

it('closes within its bound even while a process spins', async () => {
  pool = new ProcessPool({ filename: worker, name: 'stuck', processes: 1 });
  const started = join(mkdtempSync(join(tmpdir(), 'quarry-spin-')), 'started');
  const spinning = pool.run({ kind: 'spin', started }, { timeoutMs: 60_000 }).catch(() => 'abandoned');
  // The process is inside its busy loop (it made the file just before entering it).
  await until('the worker process to enter its busy loop', async () => existsSync(started), 20_000, 20);
  rmSync(dirname(started), { recursive: true, force: true });
  const closing = Date.now();
  await pool.close(1000);
  pool = null;
  expect(Date.now() - closing).toBeLessThan(2000);
  await expect(spinning).resolves.toBe('abandoned');
});
