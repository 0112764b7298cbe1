/**
 * Durability: a child process adds pages and reports each one whose addPage
 * has resolved; the test kills it with SIGKILL mid-stream (maintenance runs
 * every few writes, so a compaction may be in flight too), then a fresh open
 * must find every reported page intact and the table usable.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { silentLogger } from '../../core/logger.js';
import { compilePageIndexForChild } from './fixtures/compile-for-child.js';
import { openPageIndex } from './lance-page-index.js';

const DIMENSIONS = 16;

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'quarry-pages-crash-'));
  dirs.push(dir);
  return dir;
}

const vectorFor = (i: number) => Array.from({ length: DIMENSIONS }, (_, d) => Math.sin(i * 7.1 + d));

it('keeps every page whose addPage resolved when the process is killed with SIGKILL', async () => {
  const moduleUrl = compilePageIndexForChild(tempDir());
  const dataDir = tempDir();
  const script = [
    `import { pino } from 'pino';`,
    `const { openPageIndex } = await import(${JSON.stringify(moduleUrl)});`,
    `const index = await openPageIndex({ dir: ${JSON.stringify(dataDir)}, dimensions: ${DIMENSIONS}, retentionDays: 0, maxChunks: 0, maintenanceEvery: 4, logger: pino({ level: 'silent' }) });`,
    `const DIMENSIONS = ${DIMENSIONS};`,
    `const vectorFor = ${vectorFor.toString()};`,
    `for (let i = 0; i < 500; i++) {`,
    `  const chunks = [0, 1].map((k) => ({ text: 'page ' + i + ' chunk ' + k, vector: Float32Array.from(vectorFor(i * 2 + k)) }));`,
    `  await index.addPage({ url: 'https://crash.example.com/' + i, title: 'p' + i, chunks });`,
    `  process.stdout.write('added ' + i + '\\n');`,
    `}`,
  ].join('\n');
  const scriptPath = join(dirname(moduleUrl), 'add-then-die.mjs');
  writeFileSync(scriptPath, script);

  const { signal, added, stderr } = await new Promise<{ signal: NodeJS.Signals | null; added: number; stderr: string }>(
    (done) => {
      const child = spawn(process.execPath, [scriptPath], {
        cwd: dirname(scriptPath),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let added = -1;
      let stderr = '';
      child.stdout.on('data', (data: Buffer) => {
        for (const match of data.toString().matchAll(/added (\d+)/g)) added = Number(match[1]);
        if (added >= 25 && child.exitCode === null && !child.killed) child.kill('SIGKILL');
      });
      child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
      child.on('exit', (_code, signal) => done({ signal, added, stderr }));
    },
  );
  expect(stderr).not.toMatch(/Error/);
  expect(signal).toBe('SIGKILL');
  expect(added).toBeGreaterThanOrEqual(25);

  const index = await openPageIndex({
    dir: dataDir,
    dimensions: DIMENSIONS,
    retentionDays: 0,
    maxChunks: 0,
    logger: silentLogger(),
  });
  try {
    const stats = await index.stats();
    // Pages reported as added are all there; at most the one in flight at the kill may be too.
    expect(stats.pages).toBeGreaterThanOrEqual(added + 1);
    expect(stats.pages).toBeLessThanOrEqual(added + 2);
    expect(stats.chunks).toBe(stats.pages * 2);
    for (const i of [0, Math.floor(added / 2), added]) {
      const hit = await index.search({ vector: Float32Array.from(vectorFor(i * 2 + 1)), limit: 1 });
      expect(hit[0]).toMatchObject({ url: `https://crash.example.com/${i}`, chunkIndex: 1, text: `page ${i} chunk 1` });
    }
    expect(
      (await index.search({ text: `page ${added}`, includeDomains: ['crash.example.com'] })).length,
    ).toBeGreaterThan(0);
    await index.addPage({
      url: 'https://after.example.com/',
      title: 'after',
      chunks: [{ text: 'after the crash', vector: Float32Array.from(vectorFor(9999)) }],
    });
    expect((await index.stats()).chunks).toBe(stats.chunks + 1);
  } finally {
    await index.close();
  }
});
