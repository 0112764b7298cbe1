/**
 * Quarry's answers against the clients' own TypeScript types: every call of
 * @tavily/core (search, extract, crawl, map) and exa-js (search,
 * searchAndContents, getContents, findSimilar, findSimilarAndContents) is
 * made against a local Quarry, and what each call returned is compiled with
 * `tsc --noEmit` as a value of the type the client declares for that call.
 * A required field Quarry leaves out (Tavily's result `id`, Exa's status
 * `source`) or a null where the client types an optional string fails the compile.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { tavily } from '@tavily/core';
import { Exa } from 'exa-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../core/paths.js';
import { MEANING_PAGES, renderMeaningPage } from '../sandbox/meaning-pages.js';
import { startSandboxWeb, type SandboxWeb } from '../sandbox/sandbox-web.js';
import { startQuarry, TEST_KEY, type RunningQuarry } from './harness.js';
import { GONE_PATH, startResearchWeb, type ResearchWeb } from './research-web.js';

const run = promisify(execFile);

/** `name: Type = value` lines of the file tsc checks. */
const typed: string[] = [];
function declare(name: string, type: string, value: unknown): void {
  // Through a variable, so the check is assignability (missing fields, wrong types), not excess properties.
  typed.push(`const ${name}_value = ${JSON.stringify(value)};`, `export const ${name}: ${type} = ${name}_value;`);
}

describe('@tavily/core', () => {
  let site: ResearchWeb;
  let quarry: RunningQuarry;
  beforeAll(async () => {
    site = await startResearchWeb();
    quarry = await startQuarry(site.web, site.config());
  }, 60_000);
  afterAll(async () => {
    await quarry?.close();
    await site?.close();
  });

  it('search, extract, crawl and map answer', { timeout: 120_000 }, async () => {
    const client = tavily({ apiKey: TEST_KEY, apiBaseURL: `${quarry.url}/api/v1/agent` });
    const start = site.url('/heat-pumps/what-is-a-heat-pump');
    declare(
      'tavilySearch',
      "Awaited<ReturnType<TavilyClient['search']>>",
      await client.search('heat pump problems', { includeAnswer: true, includeImages: true, includeFavicon: true }),
    );
    declare(
      'tavilyExtract',
      "Awaited<ReturnType<TavilyClient['extract']>>",
      await client.extract([start, site.url(GONE_PATH)], { includeImages: true, includeFavicon: true }),
    );
    declare(
      'tavilyCrawl',
      "Awaited<ReturnType<TavilyClient['crawl']>>",
      await client.crawl(start, { maxDepth: 1, limit: 3 }),
    );
    declare(
      'tavilyMap',
      "Awaited<ReturnType<TavilyClient['map']>>",
      await client.map(start, { maxDepth: 1, limit: 3 }),
    );
  });
});

describe('exa-js', () => {
  let web: SandboxWeb;
  let quarry: RunningQuarry;
  beforeAll(async () => {
    web = await startSandboxWeb();
    for (const page of MEANING_PAGES) web.addPage(page.path, renderMeaningPage(page));
    const items = MEANING_PAGES.map((p) => ({ link: `${web.url}${p.path}`, name: p.title, summary: p.paragraphs[0] }));
    web.addPage('/api/find', JSON.stringify({ items }), { contentType: 'application/json' });
    quarry = await startQuarry(web, {
      customEngines: [
        {
          type: 'json',
          id: 'sandbox_find',
          name: 'Sandbox search',
          urlTemplate: `${web.url}/api/find?q={query}`,
          results: 'items',
          fields: { url: 'link', title: 'name', snippet: 'summary' },
        },
      ],
      search: { defaultEngines: ['sandbox_find'] },
    });
  }, 60_000);
  afterAll(async () => {
    await quarry?.close();
    await web?.close();
  });

  it('search, searchAndContents, getContents, findSimilar and findSimilarAndContents answer', {
    timeout: 120_000,
  }, async () => {
    const exa = new Exa(TEST_KEY, `${quarry.url}/api/v1/exa`);
    const query = 'help for a person whose heart stopped';
    const page = `${web.url}${MEANING_PAGES[0]!.path}`;
    const contents = '{ text: { maxCharacters: number }; highlights: { numSentences: number }; summary: true }';
    declare('exaSearch', 'SearchResponse<{}>', await exa.search(query, { numResults: 2, contents: false }));
    declare(
      'exaSearchAndContents',
      `SearchResponse<${contents}>`,
      await exa.searchAndContents(query, {
        numResults: 2,
        text: { maxCharacters: 100 },
        highlights: { numSentences: 1 },
        summary: true,
      }),
    );
    const read = await exa.getContents([page, `${web.url}/no-such-page`], { text: true });
    expect(read.statuses?.every((s) => s.source === 'crawled')).toBe(true);
    declare('exaGetContents', 'SearchResponse<{ text: true }>', read);
    declare('exaFindSimilar', 'SearchResponse<{}>', await exa.findSimilar(page, { numResults: 2, contents: false }));
    declare(
      'exaFindSimilarAndContents',
      'SearchResponse<{ text: true }>',
      await exa.findSimilarAndContents(page, { numResults: 2, text: true }),
    );
  });
});

describe('the answers as the clients type them', () => {
  it('compile with tsc --noEmit', { timeout: 120_000 }, async () => {
    expect(typed.length).toBe(2 * 9);
    // Inside the package, so the clients' types resolve from its node_modules.
    const dir = mkdtempSync(join(PACKAGE_ROOT, 'test', '.client-types-'));
    try {
      writeFileSync(
        join(dir, 'answers.ts'),
        [
          "import type { tavily } from '@tavily/core';",
          "import type { SearchResponse } from 'exa-js';",
          'type TavilyClient = ReturnType<typeof tavily>;',
          ...typed,
        ].join('\n'),
      );
      writeFileSync(
        join(dir, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            strict: true,
            noEmit: true,
            target: 'es2022',
            module: 'nodenext',
            moduleResolution: 'nodenext',
            skipLibCheck: true,
            types: [],
          },
          files: ['answers.ts'],
        }),
      );
      const tsc = join(PACKAGE_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
      const outcome = await run(process.execPath, [tsc, '-p', join(dir, 'tsconfig.json')]).then(
        () => '',
        (error: { stdout?: string }) => error.stdout ?? String(error),
      );
      expect(outcome, outcome).toBe('');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
