/**
 * Several instances on one page index directory: two child processes start
 * on an empty directory at the same moment and add pages at once — their
 * own and the same URLs — with maintenance (compaction, index builds)
 * running every few writes in both. Nothing may be lost or mixed, and each
 * must come to see the other's pages.
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
const OWN_PAGES = 30;
const SHARED_PAGES = 15;

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'quarry-pages-shared-'));
  dirs.push(dir);
  return dir;
}

const vectorFor = (i: number) => Array.from({ length: DIMENSIONS }, (_, d) => Math.sin(i * 7.1 + d));

function writerScript(moduleUrl: string, dir: string): string {
  return [
    `import { pino } from 'pino';`,
    `const { openPageIndex } = await import(${JSON.stringify(moduleUrl)});`,
    `const [who, other] = process.argv.slice(2);`,
    `const index = await openPageIndex({ dir: ${JSON.stringify(dir)}, dimensions: ${DIMENSIONS}, retentionDays: 0, maxChunks: 0, maintenanceEvery: 3, logger: pino({ level: 'silent' }) });`,
    `const DIMENSIONS = ${DIMENSIONS};`,
    `const vectorFor = ${vectorFor.toString()};`,
    `const page = (url, seed, label) => ({ url, title: label, chunks: [0, 1].map((k) => ({ text: label + ' chunk ' + k, vector: Float32Array.from(vectorFor(seed * 2 + k)) })) });`,
    `for (let i = 0; i < ${OWN_PAGES}; i++) {`,
    `  await index.addPage(page('https://' + who + '.example.com/' + i, i, who + ' page ' + i));`,
    `  if (i < ${SHARED_PAGES}) await index.addPage(page('https://shared.example.com/' + i, 1000 + i, who + ' shared ' + i));`,
    `}`,
    `process.stdout.write('done\\n');`,
    // The other writer's last page must become visible to this process's open index.
    `const deadline = Date.now() + 20000;`,
    `while (Date.now() < deadline) {`,
    `  const hits = await index.search({ text: other + ' page ${OWN_PAGES - 1}', includeDomains: [other + '.example.com'], limit: 1 });`,
    `  if (hits[0]?.url === 'https://' + other + '.example.com/${OWN_PAGES - 1}') { process.stdout.write('saw other\\n'); break; }`,
    `  await new Promise((r) => setTimeout(r, 100));`,
    `}`,
    `await index.close();`,
  ].join('\n');
}

function run(script: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [script, ...args], {
      cwd: dirname(script),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (data: Buffer) => (stdout += data.toString()));
    child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
    child.on('exit', (code) => done({ code, stdout, stderr }));
  });
}

it('loses and mixes nothing when two processes create and write one index at once', { timeout: 120_000 }, async () => {
  const moduleUrl = compilePageIndexForChild(tempDir());
  const dir = tempDir();
  const script = join(dirname(moduleUrl), 'write-shared.mjs');
  writeFileSync(script, writerScript(moduleUrl, dir));

  const [a, b] = await Promise.all([run(script, ['alpha', 'beta']), run(script, ['beta', 'alpha'])]);
  for (const writer of [a, b]) {
    expect(writer.stderr).toBe('');
    expect(writer.code).toBe(0);
    expect(writer.stdout).toBe('done\nsaw other\n');
  }

  const index = await openPageIndex({
    dir,
    dimensions: DIMENSIONS,
    retentionDays: 0,
    maxChunks: 0,
    logger: silentLogger(),
  });
  try {
    const stats = await index.stats();
    expect(stats.pages).toBe(2 * OWN_PAGES + SHARED_PAGES);
    expect(stats.chunks).toBe(2 * stats.pages);
    for (const who of ['alpha', 'beta']) {
      for (const i of [0, OWN_PAGES - 1]) {
        const [hit] = await index.search({
          vector: Float32Array.from(vectorFor(i * 2 + 1)),
          includeDomains: [`${who}.example.com`],
          limit: 1,
        });
        expect(hit).toMatchObject({
          url: `https://${who}.example.com/${i}`,
          chunkIndex: 1,
          text: `${who} page ${i} chunk 1`,
        });
      }
    }
    // A page both wrote is one writer's version, whole: both chunks from the same writer.
    for (let i = 0; i < SHARED_PAGES; i++) {
      const chunks = await index.search({ text: `shared ${i}`, includeDomains: ['shared.example.com'], limit: 50 });
      const own = chunks.filter((chunk) => chunk.url === `https://shared.example.com/${i}`);
      expect(own.map((chunk) => chunk.chunkIndex).sort()).toEqual([0, 1]);
      expect(new Set(own.map((chunk) => chunk.text.split(' ')[0])).size).toBe(1);
    }
  } finally {
    await index.close();
  }
});
