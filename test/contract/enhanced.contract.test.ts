/**
 * Contract of the Enhanced Search API (spec: "Enhanced Search API",
 * "Scraped page", Limits), over HTTP and MCP, against a small garden site
 * served by the sandbox web; the llm strategy and filter run against a
 * scripted local model. Where the spec says "response … not shown"
 * (extract-tables, chunk-content, discover-urls, features, performance),
 * the table holds the few fields Quarry documents for them.
 */
import { expect } from 'vitest';
import { startScriptedServer, type ScriptedServer } from '../../services/llm/fixtures/scripted-server.js';
import { startSandboxWeb, type SandboxWeb } from '../sandbox/sandbox-web.js';
import { describeContract, field, startContractHosts, type RouteContract } from './contract-suite.js';
import { searchAnswerFields } from './search-answer-fields.js';

let web: SandboxWeb;
let llm: ScriptedServer;

function page(title: string, body: string): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${title}</title><meta name="author" content="Ana Ortiz"></head><body>
<nav><a href="/garden/">Home</a> <a href="/garden/soil">Soil</a></nav><main><article>${body}</article></main></body></html>`;
}

const SITE: Record<string, string> = {
  '/garden/': page(
    'Growing tomatoes at home',
    `<h1>Growing tomatoes at home</h1><p>Tomato plants need six to eight hours of direct sun, steady watering and support from stakes or cages.</p>
<p>Read <a href="/garden/watering">how to water tomato plants</a> and <a href="/garden/soil">soil for tomatoes</a>. <img src="/img/tomato.jpg" alt="Tomato"></p>
<ul class="products"><li class="product"><h3 class="name">Cherry tomato 'Sungold'</h3><span class="price">$4.99</span></li>
<li class="product"><h3 class="name">Beefsteak tomato 'Brandywine'</h3><span class="price">$5.49</span></li></ul>
<p>Questions? Write to help@greenthumb.example or call (212) 555-0187. Next open day: 2025-03-14.</p>`,
  ),
  '/garden/watering': page(
    'How to water tomato plants',
    '<h1>How to water tomato plants</h1><p>Water tomato plants deeply twice a week so the roots grow down; ' +
      'mulch keeps watering even.</p>',
  ),
  '/garden/soil': page(
    'Soil for tomatoes',
    '<h1>Soil for tomatoes</h1><p>Tomatoes like loose, well drained soil rich in compost, with a pH between ' +
      '6.2 and 6.8.</p>',
  ),
};

const TABLE_HTML =
  '<table><caption>Prices</caption><tr><th>Plant</th><th>Price</th></tr><tr><td><a ' +
  'href="/sungold">Sungold</a></td><td>4.99</td></tr><tr><td>Brandywine</td><td>5.49</td></tr></table>';
const TEXT =
  'Tomato plants need sun. They need water twice a week.\n\nSoil should be loose and rich in compost. Mulch ' +
  'keeps the soil moist.\n\nCherry tomatoes ripen first.';
const CSS_SCHEMA = {
  name: 'seedlings',
  baseSelector: 'ul.products > li.product',
  fields: [{ name: 'name', selector: 'h3.name', type: 'text' }],
};
const SEARCH_BASE = { query: 'tomato plants', relevance_filter: false, cache_ttl: 0 };

const scrapedPage = [
  field('scraped_content[].url', 'string'),
  field('scraped_content[].title', 'string'),
  field('scraped_content[].text', 'string'),
  field('scraped_content[].images', 'string[]'),
  field('scraped_content[].links', 'string[]'),
  field('scraped_content[].metadata', 'object'),
  field('scraped_content[].metadata.title', 'string|null'),
  field('scraped_content[].metadata.description', 'string|null'),
  field('scraped_content[].metadata.author', 'string|null'),
  field('scraped_content[].metadata.published_date', 'string|null'),
  field('scraped_content[].metadata.keywords', 'string[]'),
  field('scraped_content[].word_count', 'integer'),
  field('scraped_content[].extraction_success', 'boolean'),
  field('scraped_content[].extraction_time_ms', 'integer'),
];

const routes: RouteContract[] = [
  {
    route: 'POST /api/v1/enhanced/search',
    tool: 'enhanced_search',
    minimal: { query: 'tomato plants' },
    full: {
      query: 'tomato plants',
      engines: ['sandbox_garden'],
      max_results: 5,
      scrape_content: true,
      output_format: 'markdown',
      language: 'en',
      safe_search: 'strict',
      cache_ttl: 0,
      js_mode: false,
      relevance_filter: false,
      min_relevance_score: 0.1,
      include_images: true,
      include_links: true,
      timeout: 60,
      async_mode: false,
      webhook_url: 'http://127.0.0.1:9/unused',
      extraction_strategy: 'regex',
      content_filter: 'bm25',
      markdown_generation: true,
      adaptive_crawling: true,
      virtual_scrolling: true,
      link_analysis: true,
    },
    base: SEARCH_BASE,
    bounds: [
      { field: 'max_results', kind: 'integer', min: 1, max: 100, base: { ...SEARCH_BASE, scrape_content: false } },
      { field: 'min_relevance_score', kind: 'number', min: 0, max: 1, base: { ...SEARCH_BASE, scrape_content: false } },
    ],
    enums: [
      {
        field: 'extraction_strategy',
        values: ['none', 'cosine', 'json_css', 'regex', 'llm'],
        with: { json_css: { css_schema: CSS_SCHEMA } },
      },
      { field: 'content_filter', values: ['none', 'pruning', 'bm25', 'llm'] },
    ],
    response: [...searchAnswerFields, field('enhanced_metadata', 'object')],
    volatile: ['markdown', 'results[].enhanced.markdown'],
    timeoutMs: 120_000,
    invariants: [
      {
        name: 'the page work asked for is on each result',
        check(body, sent) {
          expect(body.results.length).toBeGreaterThan(0);
          const meta = body.enhanced_metadata;
          expect(meta.extraction_strategy).toBe(sent.extraction_strategy ?? 'none');
          expect(meta.content_filter).toBe(sent.content_filter ?? 'none');
          if (sent.extraction_strategy === 'regex') expect(body.results[0].enhanced.extraction.strategy).toBe('regex');
          if (sent.webhook_url) expect(body.search_metadata.webhook_unused).toBe(true);
        },
      },
    ],
  },
  {
    route: 'POST /api/v1/enhanced/scrape',
    tool: 'enhanced_scrape',
    minimal: { urls: [] },
    full: {
      urls: [],
      extract_text: true,
      extract_images: true,
      extract_links: true,
      extract_metadata: true,
      javascript_rendering: true,
      response_format: 'markdown',
      screenshot: true,
      pdf: true,
      include_html: true,
      wait_until: 'networkidle0',
      cache_mode: 'bypass',
    },
    bounds: [{ field: 'urls', kind: 'array', min: 1, max: 50, item: (i) => `${web.url}/garden/?n=${i}` }],
    enums: [
      { field: 'response_format', values: ['json', 'markdown'] },
      { field: 'wait_until', values: ['load', 'domcontentloaded', 'networkidle0', 'networkidle2'] },
      { field: 'cache_mode', values: ['enabled', 'read_only', 'write_only', 'bypass', 'disabled'] },
    ],
    response: [
      field('request_id', 'string'),
      field('scraped_content', 'array'),
      ...scrapedPage,
      field('metadata.total_urls', 'integer'),
      field('metadata.successful', 'integer'),
      field('metadata.failed', 'integer'),
    ],
    // A PDF carries its creation time, so two renders of one page differ there.
    volatile: ['scraped_content[].pdf'],
    timeoutMs: 120_000,
    invariants: [
      {
        name: 'one entry per URL; links are strings; a failed page still has extraction_time_ms',
        check(body, sent) {
          const urls = sent.urls as string[];
          expect(body.scraped_content.map((p: any) => p.url)).toEqual(urls);
          expect(body.metadata.total_urls).toBe(urls.length);
          expect(body.metadata.successful + body.metadata.failed).toBe(urls.length);
          const hub = body.scraped_content[0];
          expect(hub.extraction_success).toBe(true);
          expect(hub.links.length).toBeGreaterThan(0);
          expect(hub.metadata.author).toBe('Ana Ortiz');
          expect(hub.metadata.published_date).toBeNull();
          for (const failed of body.scraped_content.filter((p: any) => !p.extraction_success)) {
            expect(Number.isInteger(failed.extraction_time_ms)).toBe(true);
          }
          if (urls.length > 1) expect(body.metadata.failed).toBe(1);
        },
      },
    ],
  },
  {
    route: 'POST /api/v1/enhanced/extract-tables',
    tool: 'enhanced_extract_tables',
    minimal: { html_content: TABLE_HTML },
    full: { html_content: TABLE_HTML, base_url: 'https://garden.example/', strategy: 'data' },
    // Allowed strategy values are "not shown" in the spec: these are Quarry's (docs/tables.md).
    enums: [{ field: 'strategy', values: ['auto', 'all', 'data', 'layout_aware'] }],
    response: [
      field('tables[].headers', 'string[]'),
      field('tables[].rows', 'array'),
      field('total_tables', 'integer'),
    ],
    invariants: [
      {
        name: 'the table is read',
        check(body, sent) {
          expect(body.tables[0].headers).toEqual(['Plant', 'Price']);
          if (sent.base_url) expect(body.tables[0].links[0].url).toBe('https://garden.example/sungold');
        },
      },
    ],
  },
  {
    route: 'POST /api/v1/enhanced/chunk-content',
    tool: 'enhanced_chunk_content',
    minimal: { text: TEXT },
    full: { text: TEXT, strategy: 'paragraph' },
    // Allowed strategy values are "not shown" in the spec: these are Quarry's (docs/chunking.md).
    enums: [
      { field: 'strategy', values: ['fixed', 'sentence', 'paragraph', 'recursive', 'markdown', 'semantic', 'auto'] },
    ],
    response: [field('chunks[].text', 'string'), field('total_chunks', 'integer')],
    invariants: [
      {
        name: 'chunks cover the text',
        check: (body) => expect(body.chunks.map((c: any) => c.text).join(' ')).toContain('Cherry tomatoes'),
      },
    ],
  },
  {
    route: 'POST /api/v1/enhanced/discover-urls',
    tool: 'enhanced_discover_urls',
    minimal: { base_url: '' },
    full: { base_url: '', max_urls: 5, pattern: '/garden/*' },
    response: [field('urls[].url', 'string'), field('total_found', 'integer')],
    timeoutMs: 90_000,
    invariants: [
      {
        name: 'in-site pages are found',
        check(body, sent) {
          const found = body.urls.map((u: any) => u.url);
          expect(found).toContain(`${web.url}/garden/soil`);
          expect(found.length).toBeLessThanOrEqual((sent.max_urls as number | undefined) ?? 100);
        },
      },
    ],
  },
  {
    route: 'GET /api/v1/enhanced/features',
    tool: 'enhanced_features',
    minimal: {},
    response: [field('features{}.available', 'boolean'), field('features{}.detail', 'string')],
  },
  {
    route: 'GET /api/v1/enhanced/performance',
    tool: 'enhanced_performance',
    minimal: {},
    response: [field('metrics', 'object'), field('runtime', 'object')],
    // Live figures: the MCP call itself changes them.
    volatile: ['metrics', 'runtime'],
  },
];

describeContract(
  'Enhanced Search API',
  async () => {
    web = await startSandboxWeb();
    for (const [path, html] of Object.entries(SITE)) web.addPage(path, html);
    web.addPage(
      '/api/garden',
      JSON.stringify({
        items: [{ link: `${web.url}/garden/`, name: 'Growing tomatoes at home', summary: 'Sun, watering and support' }],
      }),
      {
        contentType: 'application/json',
      },
    );
    const hub = `${web.url}/garden/`;
    routes[1]!.minimal.urls = [hub];
    routes[1]!.full!.urls = [hub, `${web.url}/garden/gone`];
    routes[4]!.minimal.base_url = hub;
    routes[4]!.full!.base_url = hub;
    llm = await startScriptedServer();
    llm.script({
      json: {
        id: 'x',
        model: 'scripted-7b',
        choices: [
          {
            index: 0,
            finish_reason: 'stop',
            message: { role: 'assistant', content: JSON.stringify({ keep: [0], items: [] }) },
          },
        ],
      },
    });
    const hosts = await startContractHosts(web, {
      customEngines: [
        {
          type: 'json',
          id: 'sandbox_garden',
          name: 'Garden',
          urlTemplate: `${web.url}/api/garden?q={query}`,
          results: 'items',
          fields: { url: 'link', title: 'name', snippet: 'summary' },
        },
      ],
      search: { defaultEngines: ['sandbox_garden'] },
      llm: {
        fast: { provider: 'openai-compatible', baseUrl: `${llm.origin}/v1`, model: 'scripted-7b', maxRetries: 0 },
      },
      vectorIndex: { enabled: false },
    });
    const close = hosts.close;
    return {
      ...hosts,
      async close() {
        await close();
        await llm.close();
        await web.close();
      },
    };
  },
  routes,
);
