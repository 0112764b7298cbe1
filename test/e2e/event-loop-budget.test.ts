/**
 * Issue 28 part 4: the CPU-heavy capabilities on request text, each with the
 * largest input it accepts, while /healthz is asked again and again: every
 * answer comes within 1 s (the heavy steps run in the worker pool or yield
 * to the event loop), and the capability itself succeeds. Probes are timed
 * from when they were due, so a block that delays sending one counts too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../../core/paths.js';
import { MAX_TEXT_CHARS } from '../../plugins/knowledge/schemas.js';
import { MAX_CHUNK_TEXT_CHARS } from '../../plugins/enhanced/chunk-content.js';
import { MAX_HTML_CONTENT_CHARS } from '../../plugins/enhanced/extract-tables.js';
import { MAX_ADDED_TEXT_CHARS } from '../../plugins/rag/schemas.js';
import { startSandboxWeb, type SandboxWeb } from '../sandbox/sandbox-web.js';
import { probeSummary, whileProbingHealth } from './health-probe.js';
import { startQuarry, type RunningQuarry } from './harness.js';

const FIRST = ['Anna', 'Boris', 'Carla', 'Deepak', 'Elena', 'Farid', 'Greta', 'Hiro', 'Ines', 'Jonas', 'Kemal', 'Lena'];
const LAST = [
  'Albrecht',
  'Brennan',
  'Castillo',
  'Dunmore',
  'Eriksen',
  'Fontaine',
  'Gallagher',
  'Hartmann',
  'Iversen',
  'Jablonski',
];
const COMPANIES = [
  'Northwind Corp.',
  'Contoso Ltd.',
  'Fabrikam Inc.',
  'Tailspin Systems',
  'Litware Inc.',
  'Adatum Corp.',
  'Woodgrove Bank',
  'Proseware Inc.',
];
const CITIES = ['London', 'Berlin', 'Austin', 'Toronto', 'Madrid', 'Oslo'];

/**
 * A real Google result page with its results repeated 40 times (about 2 MB): seconds of DOM work for the engine's
 * parser.
 */
function hugeResultPage(): string {
  const page = readFileSync(join(PACKAGE_ROOT, 'engines/google/fixtures/nojs.html'), 'utf8');
  const bodyEnd = page.lastIndexOf('</body>');
  const inner = page.slice(page.indexOf('>', page.indexOf('<body')) + 1, bodyEnd);
  return page.slice(0, bodyEnd) + inner.repeat(40) + page.slice(bodyEnd);
}

/** News prose naming many people, companies and places, cut to exactly `chars` characters. */
function newsText(chars: number): string {
  const sentences: string[] = [];
  let length = 0;
  for (let i = 0; length < chars; i++) {
    const person = `${FIRST[i % FIRST.length]} ${LAST[Math.floor(i / FIRST.length) % LAST.length]}`;
    const company = COMPANIES[i % COMPANIES.length]!;
    const partner = COMPANIES[(i + 3) % COMPANIES.length]!;
    const sentence = `${person}, chief executive of ${company}, said on Tuesday in ${CITIES[i % CITIES.length]} that ${company} partnered with ${partner} to build new data centres. `;
    sentences.push(sentence);
    length += sentence.length;
  }
  return sentences.join('').slice(0, chars).trim();
}

let web: SandboxWeb;
let quarry: RunningQuarry;
/**
 * A 1.5 MB page of news paragraphs (about 1,400 blocks), each with a link and an address; the one result of engine
 * sandbox_big.
 */
let bigPage: string;

beforeAll(async () => {
  web = await startSandboxWeb();
  quarry = await startQuarry(web, {
    // The areas that search without naming engines (agent and neural search) find the big page too.
    search: { defaultEngines: ['sandbox_big'] },
    customEngines: [
      {
        type: 'json',
        id: 'sandbox_big',
        name: 'Big results',
        urlTemplate: `${web.url}/api/big?q={query}`,
        results: 'items',
        fields: { url: 'link', title: 'name', snippet: 'summary' },
      },
    ],
  });
  const paragraph = `<p>${newsText(1000)} <a href="/big/next">more news</a> press@northwind.com</p>`;
  bigPage = web.addPage(
    '/big-news',
    `<html><body><main>${paragraph.repeat(Math.floor(1_500_000 / paragraph.length))}</main></body></html>`,
  );
  web.addPage(
    '/api/big',
    JSON.stringify({ items: [{ link: bigPage, name: 'Big news page', summary: 'data centres partnership news' }] }),
    { contentType: 'application/json' },
  );
});

afterAll(async () => {
  await quarry?.close();
  await web?.close();
});

async function underLoad(path: string, body: unknown) {
  const report = await whileProbingHealth(quarry.url, () => quarry.post(path, body));
  expect(report.result.status, JSON.stringify(report.result.body).slice(0, 300)).toBe(200);
  expect(report.worstHealthMs, probeSummary(path, report)).toBeLessThan(report.budgetMs);
  return report.result.body;
}

describe('/healthz answers within 1 s during the largest request of each CPU-heavy capability', () => {
  it(`knowledge/extract of ${MAX_TEXT_CHARS} characters (entity tagging in the worker pool), stored in the graph`, async () => {
    const body = await underLoad('/api/v1/knowledge/extract', {
      text: newsText(MAX_TEXT_CHARS),
      source_url: 'https://news.example/long',
    });
    expect(body.model_used).toBe('offline-tagger');
    expect(body.entities.length).toBeGreaterThan(50);
  }, 120_000);

  it(`knowledge/extract of ${MAX_TEXT_CHARS} characters without storing`, async () => {
    const body = await underLoad('/api/v1/knowledge/extract', { text: newsText(MAX_TEXT_CHARS), store: false });
    expect(body.stored).toBe(false);
  }, 120_000);

  it('neural/highlights over a megabyte of content', async () => {
    const body = await underLoad('/api/v1/neural/highlights', {
      query: 'data centres partnership',
      content: newsText(1_000_000),
      num_highlights: 10,
      unit: 'passage',
    });
    expect(body.highlights.length).toBeGreaterThan(0);
  }, 120_000);

  it(`enhanced/chunk-content of a megabyte, sentence strategy`, async () => {
    const body = await underLoad('/api/v1/enhanced/chunk-content', {
      text: newsText(MAX_CHUNK_TEXT_CHARS - 1024),
      strategy: 'sentence',
      max_tokens: 64,
    });
    expect(body.total_chunks).toBeGreaterThan(1000);
  }, 120_000);

  it(`enhanced/extract-tables of ${MAX_HTML_CONTENT_CHARS} characters`, async () => {
    const row = '<tr><td>Northwind</td><td>London</td><td>42</td></tr>';
    const html = `<table><tr><th>company</th><th>city</th><th>n</th></tr>${row.repeat(Math.floor((MAX_HTML_CONTENT_CHARS - 100) / row.length))}</table>`;
    const body = await underLoad('/api/v1/enhanced/extract-tables', { html_content: html, strategy: 'all' });
    expect(body.total_tables).toBe(1);
  }, 120_000);

  it('search whose engine answers a huge result page (the engine parses it in the worker pool)', async () => {
    const page = Buffer.from(hugeResultPage());
    web.answerEngine('google', () => ({ body: page, contentType: 'text/html; charset=utf-8', status: 200 }));
    const body = await underLoad('/api/v1/search/', {
      query: 'hello world',
      engines: ['google'],
      relevance_filter: false,
    });
    expect(body.results.length).toBeGreaterThan(3);
  }, 120_000);

  it(`rag/corpora/add of the largest text (${MAX_ADDED_TEXT_CHARS} characters) twice, as much as the body limit lets in`, async () => {
    // A corpus to add to: the sandbox web's results cannot be read, so it ends with no sources.
    const built = await quarry.post('/api/v1/rag/research', {
      topic: 'data centres',
      depth: 'quick',
      num_queries: 1,
      timeout: 30,
    });
    expect(built.status, JSON.stringify(built.body).slice(0, 300)).toBe(200);
    const texts = [0, 1].map((i) => ({ title: `news ${i}`, text: newsText(MAX_ADDED_TEXT_CHARS - i) }));
    const body = await underLoad('/api/v1/rag/corpora/add', { corpus_id: built.body.corpus_id, texts });
    expect(body.added).toHaveLength(2);
    expect(body.added[0].chunks).toBeGreaterThan(100);
  }, 240_000);

  const bigSearch = {
    query: 'data centres partnership',
    engines: ['sandbox_big'],
    relevance_filter: false,
    cache_ttl: 0,
    timeout: 60,
  };

  it('enhanced/search reading a 1.5 MB result page: bm25 filter over every block, markdown of what it keeps', async () => {
    const body = await underLoad('/api/v1/enhanced/search', {
      ...bigSearch,
      content_filter: 'bm25',
      bm25: { threshold: 0 },
      markdown_generation: true,
    });
    const enhanced = body.results[0].enhanced;
    expect(enhanced.content.blocks_total).toBeGreaterThan(1000);
    expect(enhanced.markdown.length).toBeGreaterThan(100_000);
  }, 120_000);

  it('enhanced/search reading a 1.5 MB result page: pruning, markdown, regex extraction and link analysis', async () => {
    const body = await underLoad('/api/v1/enhanced/search', {
      ...bigSearch,
      content_filter: 'pruning',
      markdown_generation: true,
      extraction_strategy: 'regex',
      custom_patterns: { mail: '[a-z]+@[a-z]+\\.com' },
      link_analysis: true,
    });
    const enhanced = body.results[0].enhanced;
    expect(enhanced.extraction.count).toBe(1000); // the most matches an answer holds
    expect(enhanced.link_analysis.total).toBeGreaterThan(0);
  }, 120_000);

  it('enhanced/search reading a 1.5 MB result page: cosine clustering of its blocks', async () => {
    const body = await underLoad('/api/v1/enhanced/search', {
      ...bigSearch,
      content_filter: 'none',
      extraction_strategy: 'cosine',
    });
    expect(body.results[0].enhanced.extraction.blocks_considered).toBeGreaterThan(100);
  }, 120_000);

  it('agent/extract of the 1.5 MB page with a query (its passages ranked)', async () => {
    const body = await underLoad('/api/v1/agent/extract', {
      urls: [bigPage],
      query: 'data centres partnership',
      chunks_per_source: 5,
    });
    expect(body.results).toHaveLength(1);
    expect(body.results[0].raw_content.length).toBeGreaterThan(100);
  }, 120_000);

  it('search with scrape_content reading the 1.5 MB result page', async () => {
    const body = await underLoad('/api/v1/search/', { ...bigSearch, scrape_content: true });
    expect(body.results[0].url).toBe(bigPage);
  }, 120_000);

  it('verify/claim whose evidence is looked for in the 1.5 MB page', async () => {
    const body = await underLoad('/api/v1/verify/claim', {
      claim: 'Northwind Corp. partnered with Tailspin Systems to build new data centres.',
      engines: ['sandbox_big'],
      timeout: 60,
    });
    expect(body.sources_checked).toBeGreaterThanOrEqual(1);
  }, 120_000);

  it('exa/contents of the 1.5 MB page with text and highlights', async () => {
    const body = await underLoad('/api/v1/exa/contents', {
      ids: [bigPage],
      text: true,
      highlights: { query: 'data centres partnership' },
    });
    expect(body.results).toHaveLength(1);
  }, 120_000);

  it('agent/crawl starting at the 1.5 MB page (read, links collected, content kept)', async () => {
    const body = await underLoad('/api/v1/agent/crawl', { url: bigPage, max_depth: 1, limit: 2 });
    expect(body.results.length).toBeGreaterThanOrEqual(1);
  }, 120_000);

  it('agent/search, advanced, with raw content and an answer from the 1.5 MB page', async () => {
    const body = await underLoad('/api/v1/agent/search', {
      query: 'data centres partnership',
      search_depth: 'advanced',
      include_raw_content: true,
      include_answer: true,
      max_results: 1,
    });
    expect(body.results[0].url).toBe(bigPage);
  }, 120_000);

  it('neural/search with highlights from the 1.5 MB page', async () => {
    const body = await underLoad('/api/v1/neural/search', {
      query: 'data centres partnership',
      include_highlights: true,
      num_results: 1,
    });
    expect(body.results.map((r: { url: string }) => r.url)).toEqual([bigPage]);
  }, 120_000);

  it('agent/map of the 1.5 MB page', async () => {
    const body = await underLoad('/api/v1/agent/map', { url: bigPage, max_depth: 1, limit: 5 });
    expect(body.results.length).toBeGreaterThanOrEqual(1);
  }, 120_000);

  it('rag/research whose one source is the 1.5 MB page (ranked, summarised, chunked and stored)', async () => {
    const body = await underLoad('/api/v1/rag/research', {
      topic: 'data centres partnership',
      engines: ['sandbox_big'],
      depth: 'quick',
      num_queries: 1,
      timeout: 60,
    });
    expect(body.sources.map((source: { url: string }) => source.url)).toEqual([bigPage]);
    expect(body.counts.chunks).toBeGreaterThan(100);
  }, 240_000);
});
