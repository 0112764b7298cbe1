import { mkdirSync, mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { silentLogger } from '../../core/logger.js';
import { directoryLock } from './directory-lock.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'quarry-lock-'));
  dirs.push(dir);
  return dir;
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it('lets one holder at a time run, whichever lock object it comes through', async () => {
  const dir = tempDir();
  const first = directoryLock(dir, { logger: silentLogger() });
  const second = directoryLock(dir, { logger: silentLogger() });
  let inside = 0;
  let most = 0;
  const task = async () => {
    inside++;
    most = Math.max(most, inside);
    await sleep(20);
    inside--;
  };
  await Promise.all(Array.from({ length: 6 }, (_, i) => (i % 2 ? first : second)(task)));
  expect(most).toBe(1);
});

it('takes over a lock whose holder died (its mtime went stale), and a failing task releases it', async () => {
  const dir = tempDir();
  // What a SIGKILLed holder leaves behind: the lock directory, no longer refreshed.
  mkdirSync(join(dir, 'write.lock'));
  const old = new Date(Date.now() - 60_000);
  utimesSync(join(dir, 'write.lock'), old, old);
  const lock = directoryLock(dir, { staleMs: 2_000, logger: silentLogger() });
  await expect(lock(async () => 'ran')).resolves.toBe('ran');
  await expect(lock(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
  await expect(lock(async () => 'again')).resolves.toBe('again');
});

it('gives up with UNAVAILABLE when another holder keeps the lock past the wait', async () => {
  const dir = tempDir();
  const holder = directoryLock(dir, { logger: silentLogger() });
  const waiter = directoryLock(dir, { waitMs: 300, logger: silentLogger() });
  let release!: () => void;
  let acquired!: () => void;
  const holding = new Promise<void>((resolve) => (acquired = resolve));
  const held = holder(
    () =>
      new Promise<void>((resolve) => {
        release = resolve;
        acquired();
      }),
  );
  await holding;
  await expect(waiter(async () => 'never')).rejects.toMatchObject({ code: 'UNAVAILABLE' });
  release();
  await held;
});
