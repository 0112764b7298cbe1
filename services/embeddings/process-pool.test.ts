import { fileURLToPath } from 'node:url';
import { afterEach, expect, it } from 'vitest';
import { ProcessPool } from './process-pool.js';

const worker = fileURLToPath(new URL('./fixtures/stuck-worker.mjs', import.meta.url));
let pool: ProcessPool<{ kind: string; value?: string }, string> | null = null;

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
  const spinning = pool.run({ kind: 'spin' }, { timeoutMs: 60_000 }).catch(() => 'abandoned');
  await new Promise((resolve) => setTimeout(resolve, 300));
  const started = Date.now();
  await pool.close(1000);
  pool = null;
  expect(Date.now() - started).toBeLessThan(2000);
  await expect(spinning).resolves.toBe('abandoned');
});
