/**
 * Search quality controls across engines: per-engine weights from the
 * configuration, grouping by category, and autocomplete suggestions.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../core/paths.js';
import { mergeSuggestions } from '../../services/web-search/suggestions.js';
import { playDefaultEngines } from '../recordings.js';
import { startSandboxWeb, type SandboxWeb } from '../sandbox/sandbox-web.js';
import { startQuarry, type RunningQuarry } from './harness.js';

let web: SandboxWeb;
let plain: RunningQuarry;
let weighted: RunningQuarry;
let scratch: string;

beforeAll(async () => {
  web = await startSandboxWeb();
  playDefaultEngines(web);
  web.playEngine('arxiv', {
    file: join(PACKAGE_ROOT, 'engines/arxiv/fixtures/testing.xml'),
    contentType: 'application/atom+xml',
  });
  plain = await startQuarry(web);
  weighted = await startQuarry(web, { engines: { wikipedia: { weight: 8 } } });
  scratch = mkdtempSync(join(tmpdir(), 'quarry-quality-'));
});

afterAll(async () => {
  await plain?.close();
  await weighted?.close();
  await web?.close();
  rmSync(scratch, { recursive: true, force: true });
});

const body = {
  query: 'queens',
  engines: ['duckduckgo', 'wikipedia'],
  scrape_content: false,
  cache_ttl: 0,
  relevance_filter: false,
  max_results: 40,
  explain: true,
};

describe('engine weights from the configuration', () => {
  it('moves a heavier engine up and shows the weight in the explanation', async () => {
    const before = await plain.post('/api/v1/search/', body);
    const after = await weighted.post('/api/v1/search/', body);
    const wikipediaRank = (answer: any) => answer.body.results.findIndex((r: any) => r.engine === 'wikipedia');
    expect(wikipediaRank(after)).toBeLessThan(wikipediaRank(before));
    expect(after.body.results[0].engine).toBe('wikipedia');
    expect(after.body.results[0].explanation.contributions[0].weight).toBe(8);
    const catalogue = await weighted.get('/api/v1/search/engines');
    expect(catalogue.body.engines.wikipedia.weight).toBe(8);
  });
});

describe('categories', () => {
  it('searches every enabled engine of the categories and groups results by category', async () => {
    const res = await plain.post('/api/v1/search/', {
      query: 'testing',
      categories: ['academic', 'general'],
      scrape_content: false,
      cache_ttl: 0,
      relevance_filter: false,
      max_results: 100,
    });
    expect(res.status).toBe(200);
    const meta = res.body.search_metadata;
    expect(meta.categories).toEqual(['academic', 'general']);
    expect(meta.engines_used).toEqual(expect.arrayContaining(['arxiv', 'crossref', 'duckduckgo', 'bing', 'wikipedia']));
    expect(meta.engines_used).not.toContain('brave');
    expect(meta.engines_succeeded).toEqual(expect.arrayContaining(['arxiv', 'duckduckgo']));
    const categories = res.body.results.map((r: any) => r.category);
    expect(categories[0]).toBe('academic');
    const firstGeneral = categories.indexOf('general');
    expect(firstGeneral).toBeGreaterThan(0);
    expect(categories.slice(firstGeneral).every((c: string) => c === 'general')).toBe(true);
  });
});

describe('autocomplete', () => {
  it('merges suggestions by rank without duplicates', () => {
    expect(
      mergeSuggestions(
        [
          ['a', 'b', 'c'],
          ['B', 'd'],
        ],
        10,
      ),
    ).toEqual(['a', 'B', 'd', 'c']);
    expect(
      mergeSuggestions(
        [
          ['a', 'b'],
          ['c', 'd'],
        ],
        3,
      ),
    ).toEqual(['a', 'c', 'b']);
  });

  it('suggests completions from engines over GET with query parameters', async () => {
    web.playEngine('wikipedia', {
      file: join(PACKAGE_ROOT, 'engines/wikipedia/fixtures/prefix_search_results.json'),
      contentType: 'application/json',
    });
    const ddgFile = join(scratch, 'ac.json');
    writeFileSync(ddgFile, JSON.stringify([{ phrase: 'queens of the stone age' }, { phrase: 'queens ny' }]));
    web.playEngine('duckduckgo', { file: ddgFile, contentType: 'application/json' }, { rewriteLinks: false });
    try {
      const res = await plain.get('/api/v1/search/autocomplete?q=que&engines=duckduckgo,wikipedia&max_suggestions=6');
      expect(res.status).toBe(200);
      expect(res.body.engines_failed).toEqual([]);
      expect(res.body.by_engine.duckduckgo).toEqual(['queens of the stone age', 'queens ny']);
      expect(res.body.by_engine.wikipedia.length).toBeGreaterThan(0);
      expect(res.body.suggestions.length).toBeLessThanOrEqual(6);
      expect(res.body.suggestions[0]).toBe('queens of the stone age');
      expect(res.body.suggestions[1]).toBe(res.body.by_engine.wikipedia[0]);
    } finally {
      playDefaultEngines(web);
    }
  });

  it('refuses engines without autocomplete and bad parameters with a 400', async () => {
    const none = await plain.get('/api/v1/search/autocomplete?q=que&engines=bing');
    expect(none.status).toBe(400);
    expect(none.body.error.message).toContain('duckduckgo');
    const bad = await plain.get('/api/v1/search/autocomplete?q=que&max_suggestions=lots');
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('max_suggestions');
    const empty = await plain.get('/api/v1/search/autocomplete?q=');
    expect(empty.status).toBe(400);
  });
});
