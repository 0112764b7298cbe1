/** The quarry command from the built package: the engine catalogue and the parser runner. */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../core/paths.js';
import { hashingEmbedding } from '../../services/chunking/hashing-embedding.js';
import { silentLogger } from '../../core/logger.js';
import { openPageIndex } from '../../services/vectors/lance-page-index.js';
import { spawnQuarry } from './quarry-process.js';

const CLI = join(PACKAGE_ROOT, 'dist/hosts/cli/main.js');
const run = (...args: string[]) =>
  spawnSync(process.execPath, [CLI, ...args], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOME: '/tmp' },
  });

describe('quarry CLI', () => {
  it('prints the catalogue as JSON with the engine entries of GET /api/v1/search/engines', () => {
    const out = JSON.parse(
      execFileSync(process.execPath, [CLI, 'engines', '--json'], {
        encoding: 'utf8',
        env: { PATH: process.env.PATH ?? '', HOME: '/tmp' },
      }),
    );
    expect(out.total_engines).toBe(Object.keys(out.engines).length);
    for (const id of ['duckduckgo', 'bing', 'google', 'brave', 'wikipedia', 'arxiv', 'github', 'crossref', 'searxng']) {
      const entry = out.engines[id];
      expect(entry, id).toBeDefined();
      expect(entry.name).toBe(id);
      expect(Array.isArray(entry.categories)).toBe(true);
      expect(typeof entry.paging_support).toBe('boolean');
    }
    expect(out.engines.brave.enabled).toBe(false);
    expect(out.engines.brave.disabled_reason).toContain('API key');
    expect(out.engines.duckduckgo.enabled).toBe(true);
  });

  it('prints a readable table without --json', () => {
    const result = run('engines');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/duckduckgo\s+general/);
  });

  it('runs an engine parser on a saved response', () => {
    const fixture = join(PACKAGE_ROOT, 'engines/wikipedia/fixtures/full_text_search_results.json');
    const result = run('engine', 'parse', 'wikipedia', fixture, '--query', 'test');
    expect(result.status, result.stderr).toBe(0);
    const parsed = JSON.parse(result.stdout);
    expect(Array.isArray(parsed)).toBe(true);
    expect(parsed.length).toBeGreaterThan(0);
    expect(parsed[0].url).toMatch(/^https:\/\/en\.wikipedia\.org\/wiki\//);
  });

  it('names the known engines for an unknown one, and fails on usage errors', () => {
    const unknown = run('engine', 'parse', 'nosuch', '/dev/null');
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('duckduckgo');
    expect(run('frobnicate').status).toBe(2);
  });
});

describe('quarry serve from the built package', () => {
  it('starts, answers /healthz and the API, and shuts down cleanly on SIGTERM', async () => {
    const child = await spawnQuarry({ port: 0, apiKeys: ['serve-test-key-123'] });
    try {
      const health = await fetch(`${child.url}/healthz`);
      expect(health.status).toBe(200);
      const engines = await child.get('/api/v1/search/engines');
      expect(engines.body.total_engines).toBeGreaterThan(9);
      child.kill('SIGTERM');
      expect((await child.exited).code).toBe(0);
      expect(child.logs()).toContain('shutting down');
      expect(child.stdout()).toBe('');
    } finally {
      child.kill('SIGKILL');
      rmSync(child.dataDir, { recursive: true, force: true });
    }
  });
});

describe('quarry engine parse on each kind of answer', () => {
  // Every engine's parser is checked in-process by its own conformance test (engines/*/engine.test.ts);
  // here the built CLI runs one engine per answer format (HTML, JSON, XML, RSS, …), which is what the
  // command itself adds — a CLI process per engine took over four minutes of the suite.
  it('prints a JSON array of results for one engine of each answer format', async () => {
    const { readdirSync, readFileSync, existsSync } = await import('node:fs');
    const byFormat = new Map<string, string>();
    for (const id of readdirSync(join(PACKAGE_ROOT, 'engines')).sort()) {
      const manifest = join(PACKAGE_ROOT, 'engines', id, 'plugin.json');
      if (id.startsWith('_') || !existsSync(manifest)) continue;
      const format =
        (JSON.parse(readFileSync(manifest, 'utf8')) as { about?: { results?: string } }).about?.results ?? 'unknown';
      if (!byFormat.has(format)) byFormat.set(format, id);
    }
    expect(byFormat.size).toBeGreaterThanOrEqual(4);
    const failures: string[] = [];
    for (const [format, id] of byFormat) {
      const fixtures = join(PACKAGE_ROOT, 'engines', id, 'fixtures');
      const files = readdirSync(fixtures).filter((f) => !/PROVENANCE|\.meta\.json$/.test(f));
      const parsedOne = files.some((file) => {
        const result = run('engine', 'parse', id, join(fixtures, file), '--query', 'test');
        if (result.status !== 0) return false;
        const parsed = JSON.parse(result.stdout) as Array<{ url?: unknown; title?: unknown }>;
        return (
          Array.isArray(parsed) &&
          parsed.length > 0 &&
          typeof parsed[0]?.url === 'string' &&
          typeof parsed[0]?.title === 'string'
        );
      });
      if (!parsedOne) failures.push(`${id} (${format})`);
    }
    expect(failures).toEqual([]);
  }, 120_000);
});

describe('quarry engine new', () => {
  it('scaffolds an engine whose manifest validates and whose parser reads its fixture', async () => {
    const { mkdtempSync, rmSync, readFileSync, existsSync } = await import('node:fs');
    const { loadEngineFolder } = await import('../../core/plugins/plugin-loader.js');
    const parent = mkdtempSync(join(PACKAGE_ROOT, '.scaffold-'));
    try {
      const result = run('engine', 'new', 'my_search', '--dir', parent);
      expect(result.status, result.stderr).toBe(0);
      const dir = join(parent, 'my_search');
      for (const file of [
        'plugin.json',
        'engine.ts',
        'engine.test.ts',
        'fixtures/search.json',
        'fixtures/PROVENANCE.md',
      ])
        expect(existsSync(join(dir, file)), file).toBe(true);
      const engine = await loadEngineFolder(dir, 'directory');
      expect(engine.manifest.id).toBe('my_search');
      const ctx = {
        query: { query: 'x', page: 1, language: 'en', safeSearch: 1 as const },
        settings: { baseUrl: engine.manifest.baseUrl, options: {} },
        manifest: engine.manifest,
      };
      const request = engine.definition.buildRequest(ctx);
      const step = engine.definition.parseResponse(
        {
          status: 200,
          headers: {},
          body: readFileSync(join(dir, 'fixtures/search.json'), 'utf8'),
          url: request.url,
          request,
        },
        ctx,
      );
      expect('results' in step && step.results.map((r) => r.title)).toEqual(['First result', 'Second result']);
      // The scaffold's own test (conformance suite + fixture) passes as generated.
      const vitest = spawnSync(process.execPath, [join(PACKAGE_ROOT, 'node_modules/vitest/vitest.mjs'), 'run', dir], {
        cwd: PACKAGE_ROOT,
        encoding: 'utf8',
      });
      expect(vitest.status, vitest.stdout + vitest.stderr).toBe(0);
      expect(vitest.stdout).toMatch(/passed/);
      expect(run('engine', 'new', 'my_search', '--dir', parent).status).toBe(2);
      expect(run('engine', 'new', 'Bad-Name', '--dir', parent).status).toBe(2);
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('quarry index', () => {
  it('reports the page index and purges pages by domain, then everything', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'quarry-cli-index-'));
    try {
      const embed = hashingEmbedding(100);
      const index = await openPageIndex({
        dir: join(dataDir, 'page-index'),
        dimensions: 100,
        retentionDays: 0,
        maxChunks: 0,
        logger: silentLogger(),
      });
      for (const url of ['https://a.example/1', 'https://a.example/2', 'https://b.example/1']) {
        const texts = [`first part of ${url}`, `second part of ${url}`];
        const vectors = (await embed(texts)).map((v) => Float32Array.from(v));
        await index.addPage({ url, title: url, chunks: texts.map((text, i) => ({ text, vector: vectors[i]! })) });
      }
      await index.close();
      const env = { PATH: process.env.PATH ?? '', HOME: dataDir, QUARRY_DATA_DIR: dataDir };
      const cli = (...args: string[]) =>
        spawnSync(process.execPath, [CLI, 'index', ...args], { encoding: 'utf8', env });
      const before = cli('stats', '--json');
      expect(before.status, before.stderr).toBe(0);
      expect(JSON.parse(before.stdout)).toMatchObject({ pages: 3, chunks: 6, dimensions: 100 });
      const nothing = cli('purge');
      expect(nothing.status).toBe(2);
      expect(nothing.stderr).toMatch(/--all, --domain/);
      const domain = cli('purge', '--domain', 'a.example');
      expect(domain.status, domain.stderr).toBe(0);
      expect(domain.stdout).toBe('removed 4 chunks\n');
      expect(JSON.parse(cli('stats', '--json').stdout)).toMatchObject({ pages: 1, chunks: 2 });
      expect(cli('purge', '--all').stdout).toBe('removed 2 chunks\n');
      expect(cli('stats').stdout).toMatch(/^0 pages, 0 chunks/);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
