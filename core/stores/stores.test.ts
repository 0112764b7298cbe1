import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import { silentLogger } from '../logger.js';
import { compileForChild } from '../../test/sandbox/compile-for-child.js';
import { hasRedisServer, startLocalRedis, type LocalRedis } from '../../test/sandbox/local-redis.js';
import { createStores, SQLITE_FILE_NAME, type Stores } from './stores.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'quarry-stores-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function open(options: Parameters<typeof createStores>[0]): Promise<Stores> {
  const stores = await createStores(options);
  cleanups.push(() => stores.close());
  return stores;
}

/** Compiles stores.ts (and errors.ts) to plain JS so a child `node` process can import it. */
function compileStoresForChild(): string {
  const files = [
    'core/errors.ts',
    'core/stores/stores.ts',
    'core/stores/bounded-map.ts',
    'core/stores/group-commit-sqlite.ts',
    'core/stores/redis-client.ts',
  ];
  return compileForChild(tempDir(), files, 'core/stores/stores.ts');
}

describe('createStores on SQLite (default)', () => {
  it('creates the data dir, keeps records across a reopen, and keeps the cache in memory only', async () => {
    const dataDir = join(tempDir(), 'nested', 'data');
    const first = await createStores({ dataDir, logger: silentLogger() });
    expect(first.backend).toBe('memory+sqlite');
    await first.records.set('job:1', { status: 'queued', n: 1 });
    await first.cache.set('search:x', { hits: 3 });
    expect(await first.cache.get('search:x')).toEqual({ hits: 3 });
    await first.close();
    expect(existsSync(join(dataDir, SQLITE_FILE_NAME))).toBe(true);

    const second = await open({ dataDir, logger: silentLogger() });
    expect(await second.records.get('job:1')).toEqual({ status: 'queued', n: 1 });
    expect(await second.cache.get('search:x')).toBeUndefined();
  });

  it('puts the SQLite file in WAL mode', async () => {
    const dataDir = tempDir();
    const stores = await open({ dataDir, logger: silentLogger() });
    await stores.records.set('k', 'v');
    expect(existsSync(join(dataDir, `${SQLITE_FILE_NAME}-wal`))).toBe(true);
  });

  it('surfaces store errors instead of swallowing them', async () => {
    const stores = await createStores({ dataDir: tempDir(), logger: silentLogger() });
    await stores.close();
    await expect(stores.records.set('k', 'v')).rejects.toBeInstanceOf(Error);
    await expect(stores.records.get('k')).rejects.toBeInstanceOf(Error);
  });

  it('has a value on disk as soon as set() resolves, even if the process is killed with SIGKILL', async () => {
    const storesModule = compileStoresForChild();
    const dataDir = tempDir();
    const child = [
      `import { pino } from 'pino';`,
      `const { createStores } = await import(${JSON.stringify(storesModule)});`,
      `const stores = await createStores({ dataDir: ${JSON.stringify(dataDir)}, logger: pino({ level: 'silent' }) });`,
      `for (let i = 0; i < 20; i++) await stores.records.set('item:' + i, { i });`,
      `await stores.records.set('last', 'written');`,
      `process.kill(process.pid, 'SIGKILL');`,
    ].join('\n');
    const scriptPath = join(dirname(storesModule), 'write-then-die.mjs');
    writeFileSync(scriptPath, child);
    const { signal, stderr } = await new Promise<{ signal: NodeJS.Signals | null; stderr: string }>((done) => {
      const proc = spawn(process.execPath, [scriptPath], {
        cwd: dirname(storesModule),
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      proc.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      proc.on('exit', (_code, signal) => done({ signal, stderr }));
    });
    expect(stderr).toBe('');
    expect(signal).toBe('SIGKILL');

    const reopened = await open({ dataDir, logger: silentLogger() });
    expect(await reopened.records.get('last')).toBe('written');
    for (let i = 0; i < 20; i++) expect(await reopened.records.get(`item:${i}`)).toEqual({ i });
  });
});

describe.runIf(hasRedisServer)('createStores on Redis', () => {
  let redis: LocalRedis;
  beforeAll(async () => {
    redis = await startLocalRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  it('shares records and cache between instances, in separate namespaces', async () => {
    const first = await open({ dataDir: tempDir(), redisUrl: redis.url, logger: silentLogger() });
    expect(first.backend).toBe('redis');
    await first.records.set('job:1', { status: 'queued' });
    await first.cache.set('same-key', 'cached', 60_000);
    await first.records.set('same-key', 'recorded');

    const second = await open({ dataDir: tempDir(), redisUrl: redis.url, logger: silentLogger() });
    expect(await second.records.get('job:1')).toEqual({ status: 'queued' });
    expect(await second.cache.get('same-key')).toBe('cached');
    expect(await second.records.get('same-key')).toBe('recorded');
  });

  it('fails fast, rather than hangs, when Redis goes away after start-up', async () => {
    const doomed = await startLocalRedis();
    const stores = await open({ dataDir: tempDir(), redisUrl: doomed.url, logger: silentLogger() });
    await stores.records.set('k', 'v');
    await doomed.stop();
    const started = performance.now();
    await expect(stores.records.get('k')).rejects.toBeInstanceOf(Error);
    await expect(stores.records.set('k', 'w')).rejects.toBeInstanceOf(Error);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('fails at start-up with UNAVAILABLE when Redis is unreachable', async () => {
    const unreachable = `redis://127.0.0.1:${redis.port === 1 ? 2 : 1}`;
    const failure = await createStores({ dataDir: tempDir(), redisUrl: unreachable, logger: silentLogger() }).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(AppError);
    expect((failure as AppError).code).toBe('UNAVAILABLE');
  });
});
