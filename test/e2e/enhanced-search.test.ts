import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mergeLayers, type ConfigInput } from '../../app/config.js';
import { startScriptedServer, type ScriptedServer } from '../../services/llm/fixtures/scripted-server.js';
import { startSandboxWeb, type SandboxWeb } from '../sandbox/sandbox-web.js';
import { startQuarry, type RunningQuarry } from './harness.js';

let web: SandboxWeb;
let llm: ScriptedServer;
let quarry: RunningQuarry;
let withModel: RunningQuarry;

const SEARCH = '/api/v1/enhanced/search';

function page(title: string, body: string): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body>
<nav class="site-nav"><ul><li><a href="/garden/">Home</a></li><li><a href="/garden/recipes">Recipes</a></li><li><a href="/garden/about">About us</a></li></ul></nav>
<main><article>${body}</article></main>
<footer class="site-footer"><p>© 2024 Green Thumb Gardens. All rights reserved. <a href="/garden/privacy">Privacy</a></p></footer></body></html>`;
}

const HUB = page(
  'Growing tomatoes at home',
  `<h1>Growing tomatoes at home</h1>
<p>Tomato plants need six to eight hours of direct sun, steady watering and support from stakes or cages as the vines grow heavy with fruit.</p>
<p>Start with our guides: <a href="/garden/watering">how to water tomato plants</a>, <a href="/garden/pests">tomato pests and diseases</a> and <a href="/garden/soil">soil and compost for tomatoes</a>.
Also see <a href="/garden/overview">the tomato growing overview</a> and <a href="/garden/recipes">summer salad recipes</a>.</p>
<h2>Our seedlings</h2>
<ul class="products">
  <li class="product" data-sku="T-100"><h3 class="name">Cherry tomato 'Sungold'</h3><span class="price">$4.99</span><a class="more" href="/garden/sungold">Details</a><img src="/img/sungold.jpg" alt="Sungold"><ul class="tags"><li>cherry</li><li>sweet</li></ul><div class="grower"><span class="who">Ana Ortiz</span><span class="farm">Hill Farm</span></div></li>
  <li class="product" data-sku="T-200"><h3 class="name">Beefsteak tomato 'Brandywine'</h3><span class="price">$5.49</span><a class="more" href="/garden/brandywine">Details</a><img src="/img/brandywine.jpg" alt="Brandywine"><ul class="tags"><li>heirloom</li></ul><div class="grower"><span class="who">Ben Kahn</span><span class="farm">River Plot</span></div></li>
</ul>
<h2>Contact</h2>
<p>Questions about tomato growing? Write to help@greenthumb.example or call (212) 555-0187, or from abroad +44 20 7946 0958. Next open day: March 14, 2025 (also listed as 2025-03-14). Seedling boxes from €12.50.</p>
<p>External reading: <a href="https://extension.example.org/tomatoes" rel="nofollow">university extension notes on tomatoes</a> and <a href="https://shop.example.net/">our shop</a>. <a href="mailto:help@greenthumb.example">Email us</a>.</p>`,
);

const WATERING = page(
  'How to water tomato plants',
  `<h1>How to water tomato plants</h1>
<p>Water tomato plants deeply twice a week so the roots grow down; shallow daily sprinkling keeps roots near the surface and stresses the plant in heat.</p>
<p>Uneven watering causes blossom end rot and split fruit. Mulch holds moisture in the soil and keeps watering even through dry spells.</p>
<p><a href="/garden/">Back to the tomato guide</a></p>`,
);
const PESTS = page(
  'Tomato pests and diseases',
  `<h1>Tomato pests and diseases</h1>
<p>Hornworms strip tomato leaves overnight; pick them off by hand in the evening. Aphids cluster under leaves and are washed off with a jet of water.</p>
<p>Early blight shows as brown rings on the lower leaves of tomato plants. Remove infected leaves and rotate crops every year to break the fungus cycle.</p>
<p><a href="/garden/">Back to the tomato guide</a></p>`,
);
const SOIL = page(
  'Soil and compost for tomatoes',
  `<h1>Soil and compost for tomatoes</h1>
<p>Tomatoes like loose, well drained soil rich in compost, slightly acidic with a pH between 6.2 and 6.8. Calcium in the soil prevents blossom disorders.</p>
<p>Work two inches of compost into the bed before planting and side-dress tomato plants with compost when the first fruits set.</p>`,
);
/** Says again what the hub says: little new information. */
const OVERVIEW = page(
  'Tomato growing overview',
  `<h1>Tomato growing overview</h1>
<p>Tomato plants need six to eight hours of direct sun, steady watering and support from stakes or cages as the vines grow heavy with fruit.</p>`,
);
const RECIPES = page(
  'Summer salad recipes',
  `<h1>Summer salad recipes</h1><p>Cucumber, feta and mint make a cooling salad; dress it with lemon juice and olive oil and serve it chilled with bread.</p>`,
);

function engines(): ConfigInput {
  const engine = (id: string, path: string) => ({
    type: 'json',
    id,
    name: id,
    urlTemplate: `${web.url}${path}?q={query}`,
    results: 'items',
    fields: { url: 'link', title: 'name', snippet: 'summary' },
  });
  return {
    customEngines: [
      engine('sandbox_garden', '/api/garden'),
      engine('sandbox_articles', '/api/articles'),
      engine('sandbox_wiki', '/api/wiki'),
    ],
    search: { defaultEngines: ['sandbox_garden'] },
  } as ConfigInput;
}

beforeAll(async () => {
  web = await startSandboxWeb();
  for (const [path, html] of Object.entries({
    '/garden/': HUB,
    '/garden/watering': WATERING,
    '/garden/pests': PESTS,
    '/garden/soil': SOIL,
    '/garden/overview': OVERVIEW,
    '/garden/recipes': RECIPES,
  })) {
    web.addPage(path, html);
  }
  const items = (list: Array<[string, string, string]>) =>
    JSON.stringify({ items: list.map(([link, name, summary]) => ({ link, name, summary })) });
  web.addPage(
    '/api/garden',
    items([[`${web.url}/garden/`, 'Growing tomatoes at home', 'Sun, watering and support for tomato plants']]),
    { contentType: 'application/json' },
  );
  web.addPage(
    '/api/articles',
    items([
      [
        web.pageUrl('article-audi-etron-sportback'),
        'Audi e-tron Sportback revealed',
        'The electric coupe SUV: range, charging and price',
      ],
      [`${web.url}/garden/missing`, 'A page that is gone', 'This result answers 404'],
    ]),
    { contentType: 'application/json' },
  );
  web.addPage(
    '/api/wiki',
    items([
      [
        web.pageUrl('wikipedia-microsoft'),
        'Microsoft - Wikipedia',
        'Microsoft Corporation is an American technology company',
      ],
    ]),
    { contentType: 'application/json' },
  );
  llm = await startScriptedServer();
  quarry = await startQuarry(web, engines());
  withModel = await startQuarry(
    web,
    mergeLayers(engines() as Record<string, unknown>, {
      llm: {
        fast: { provider: 'openai-compatible', baseUrl: `${llm.origin}/v1`, model: 'scripted-7b', maxRetries: 0 },
      },
    }) as ConfigInput,
  );
}, 90_000);

afterAll(async () => {
  await quarry?.close();
  await withModel?.close();
  await llm?.close();
  await web?.close();
});

function chat(content: unknown) {
  return {
    json: {
      id: 'x',
      model: 'scripted-7b',
      choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: JSON.stringify(content) } }],
    },
  };
}

const garden = { query: 'tomato plants', engines: ['sandbox_garden'], relevance_filter: false, cache_ttl: 0 };
const articles = {
  query: 'electric car battery range and charging',
  engines: ['sandbox_articles'],
  relevance_filter: false,
  cache_ttl: 0,
};

describe('enhanced search', () => {
  it('runs asynchronously with async_mode and serves the job status and the webhook', async () => {
    const res = await quarry.post(SEARCH, {
      ...garden,
      content_filter: 'bm25',
      async_mode: true,
      webhook_url: web.webhookUrl('enhanced-done'),
    });
    expect(res.status).toBe(202);
    expect(['pending', 'processing']).toContain(res.body.status);
    expect(res.body.job_id).toBe(res.body.request_id);
    expect(res.body.status_url).toContain(`/api/v1/enhanced/search/jobs/${res.body.request_id}`);
    const [delivery] = await web.waitForWebhook('enhanced-done', 1, 20_000);
    const payload = JSON.parse(delivery!.body);
    expect(payload.request_id).toBe(res.body.request_id);
    expect(payload.status).toBe('completed');
    const status = await quarry.get(`/api/v1/enhanced/search/jobs/${res.body.request_id}`);
    expect(status.status).toBe(200);
    expect(status.body.status).toBe('completed');
    expect(status.body.result.enhanced_metadata.content_filter).toBe('bm25');
    expect(status.body.result.results[0].scraped_content.text).toContain('six to eight hours');
    expect(status.body.results).toEqual(status.body.result.results);
    expect((await quarry.get('/api/v1/enhanced/search/jobs/req_000000000000000000000000')).status).toBe(404);
  });

  it('answers like the Search API when no enhancement is asked, with scraped content', async () => {
    const res = await quarry.post(SEARCH, { ...garden, output_format: 'markdown' });
    expect(res.status).toBe(200);
    expect(res.body.results).toHaveLength(1);
    expect(res.body.results[0].scraped_content.text).toContain('six to eight hours');
    expect(res.body.results[0].enhanced).toBeUndefined();
    expect(res.body.enhanced_metadata).toMatchObject({
      extraction_strategy: 'none',
      content_filter: 'none',
      pages_processed: 0,
    });
    expect(res.body.markdown).toContain('Growing tomatoes at home');
  });

  it('extracts records with a json_css schema: nested, list, nested_list and attribute fields', async () => {
    const res = await quarry.post(SEARCH, {
      ...garden,
      extraction_strategy: 'json_css',
      css_schema: {
        name: 'seedlings',
        baseSelector: 'ul.products > li.product',
        fields: [
          { name: 'sku', type: 'attribute', attribute: 'data-sku' },
          { name: 'name', selector: 'h3.name', type: 'text' },
          { name: 'price', selector: '.price', type: 'text' },
          { name: 'link', selector: 'a.more', type: 'attribute', attribute: 'href' },
          { name: 'image', selector: 'img', type: 'attribute', attribute: 'src' },
          { name: 'tags', selector: 'ul.tags li', type: 'list' },
          {
            name: 'grower',
            selector: '.grower',
            type: 'nested',
            fields: [
              { name: 'who', selector: '.who', type: 'text' },
              { name: 'farm', selector: '.farm', type: 'text' },
            ],
          },
          {
            name: 'spans',
            selector: '.grower span',
            type: 'nested_list',
            fields: [{ name: 'class', type: 'attribute', attribute: 'class' }],
          },
          { name: 'missing', selector: '.nope', type: 'text', default: 'n/a' },
        ],
      },
    });
    expect(res.status).toBe(200);
    const extraction = res.body.results[0].enhanced.extraction;
    expect(extraction).toMatchObject({ strategy: 'json_css', count: 2, name: 'seedlings' });
    expect(extraction.data[0]).toEqual({
      sku: 'T-100',
      name: "Cherry tomato 'Sungold'",
      price: '$4.99',
      link: `${web.url}/garden/sungold`,
      image: `${web.url}/img/sungold.jpg`,
      tags: ['cherry', 'sweet'],
      grower: { who: 'Ana Ortiz', farm: 'Hill Farm' },
      spans: [{ class: 'who' }, { class: 'farm' }],
      missing: 'n/a',
    });
    expect(extraction.data[1].tags).toEqual(['heirloom']);
  });

  it('finds emails, phones, dates, prices and URLs with the regex strategy, plus custom patterns', async () => {
    const res = await quarry.post(SEARCH, {
      ...garden,
      extraction_strategy: 'regex',
      regex_patterns: ['email', 'phone', 'date', 'price', 'url'],
      custom_patterns: { sku: 'T-\\d{3}', pH: { pattern: 'ph between [\\d.]+ and [\\d.]+', flags: 'i' } },
    });
    expect(res.status).toBe(200);
    const data = res.body.results[0].enhanced.extraction.data as Array<{ label: string; value: string }>;
    const values = (label: string) => data.filter((m) => m.label === label).map((m) => m.value);
    expect(values('email')).toEqual(['help@greenthumb.example']);
    expect(values('phone_us')).toContain('(212) 555-0187');
    expect(values('phone_international')).toContain('+44 20 7946 0958');
    expect(values('date_written')).toContain('March 14, 2025');
    expect(values('date_iso')).toContain('2025-03-14');
    expect(values('currency')).toEqual(expect.arrayContaining(['$4.99', '$5.49', '€12.50']));
    expect(res.body.results[0].enhanced.extraction.counts.email).toBe(1);
  });

  it('prunes boilerplate, keeps query-relevant blocks with bm25, and writes markdown of what is kept', async () => {
    const pruned = await quarry.post(SEARCH, {
      ...articles,
      max_results: 1,
      content_filter: 'pruning',
      markdown_generation: true,
    });
    expect(pruned.status).toBe(200);
    const p = pruned.body.results[0].enhanced;
    expect(p.status).toBe('ok');
    expect(p.content.blocks_kept).toBeLessThan(p.content.blocks_total);
    expect(p.content.text).toContain('150 kW DC fast charging');
    expect(p.content.text).not.toContain('Editorial Standards');
    expect(p.markdown).toMatch(/^# 2020 Audi e-tron Sportback/m);
    expect(p.markdown).toContain('## Range and Charging');

    const bm25 = await quarry.post(SEARCH, {
      ...articles,
      max_results: 1,
      content_filter: 'bm25',
      bm25: { threshold: 1 },
      markdown_generation: true,
    });
    const b = bm25.body.results[0].enhanced;
    expect(b.content.blocks_kept).toBeLessThan(p.content.blocks_kept);
    expect(b.content.text).toContain('charging');
    expect(b.content.text).not.toContain('Singleframe grille');
    expect(b.markdown).toContain('## Range and Charging');
  });

  it('clusters blocks by meaning with the cosine strategy and ranks the clusters against the query', async () => {
    const res = await quarry.post(SEARCH, {
      ...articles,
      max_results: 1,
      content_filter: 'pruning',
      extraction_strategy: 'cosine',
      cosine: { top_k: 2 },
    });
    expect(res.status).toBe(200);
    const extraction = res.body.results[0].enhanced.extraction;
    expect(extraction.strategy).toBe('cosine');
    expect(extraction.data.length).toBeGreaterThan(0);
    expect(extraction.data.length).toBeLessThanOrEqual(2);
    expect(extraction.data[0].text).toMatch(/charging/);
    expect(extraction.data[0].relevance).toBeGreaterThanOrEqual(extraction.data.at(-1).relevance);
    expect(res.body.enhanced_metadata.embedding_model).toBe('quarry/glove-static-100d');
  });

  it('reports a result page that cannot be fetched on that result, not as a failed request', async () => {
    const res = await quarry.post(SEARCH, { ...articles, content_filter: 'pruning' });
    expect(res.status).toBe(200);
    const [ok, gone] = res.body.results;
    expect(ok.enhanced.status).toBe('ok');
    expect(gone.enhanced.status).toBe('failed');
    expect(gone.enhanced.errors[0]).toMatchObject({ step: 'fetch' });
    expect(res.body.enhanced_metadata.pages_failed).toBe(1);
  });

  it('analyses every link of a page: internal or external, anchor text, nofollow, relevance', async () => {
    const res = await quarry.post(SEARCH, { ...garden, link_analysis: true });
    expect(res.status).toBe(200);
    const analysis = res.body.results[0].enhanced.link_analysis;
    const byUrl = new Map<string, any>(analysis.links.map((l: any) => [l.url, l]));
    expect(byUrl.get(`${web.url}/garden/watering`)).toMatchObject({
      type: 'internal',
      text: 'how to water tomato plants',
      nofollow: false,
    });
    expect(byUrl.get('https://extension.example.org/tomatoes')).toMatchObject({
      type: 'external',
      nofollow: true,
      rel: ['nofollow'],
    });
    expect(analysis.skipped).toBeGreaterThanOrEqual(1); // the mailto: link
    expect(analysis.external).toBe(2);
    expect(analysis.total).toBe(analysis.internal + analysis.external);
    // Tomato links rank above the privacy page and the salad recipes.
    const rank = (url: string) => analysis.links.findIndex((l: any) => l.url === url);
    expect(rank(`${web.url}/garden/watering`)).toBeLessThan(rank(`${web.url}/garden/privacy`));
    expect(rank(`${web.url}/garden/pests`)).toBeLessThan(rank(`${web.url}/garden/recipes`));
    for (const link of analysis.links) expect(link.relevance).toBeGreaterThanOrEqual(0);
  });

  it('analyses the links of a real page (Wikipedia)', async () => {
    const res = await quarry.post(SEARCH, {
      query: 'Microsoft Windows operating system',
      engines: ['sandbox_wiki'],
      relevance_filter: false,
      cache_ttl: 0,
      link_analysis: true,
    });
    expect(res.status).toBe(200);
    const analysis = res.body.results[0].enhanced.link_analysis;
    expect(analysis.total).toBeGreaterThan(500);
    expect(analysis.external).toBeGreaterThan(50);
    expect(
      analysis.links
        .slice(0, 15)
        .map((l: any) => l.text)
        .join(' '),
    ).toMatch(/Windows/);
  });

  it('crawls adaptively: most relevant links first, stopping when pages stop adding information', async () => {
    const res = await quarry.post(SEARCH, {
      ...garden,
      query: 'tomato plants watering pests soil compost',
      adaptive_crawling: true,
      adaptive: { max_pages: 10, patience: 2, min_gain: 0.2 },
    });
    expect(res.status).toBe(200);
    const crawl = res.body.results[0].enhanced.adaptive_crawl;
    const paths = crawl.pages.map((p: any) => new URL(p.url).pathname);
    expect(paths[0]).toBe('/garden/');
    expect(new Set(paths.slice(1, 4))).toEqual(new Set(['/garden/watering', '/garden/pests', '/garden/soil']));
    expect(crawl.stopped_because).toBe('information_gain_below_threshold');
    expect(crawl.pages_visited).toBe(paths.length);
    expect(crawl.pages_visited).toBeLessThan(10);
    for (const p of crawl.pages.slice(1, 4)) expect(p.information_gain).toBeGreaterThan(0.2);
    expect(crawl.pages.at(-1).information_gain).toBeLessThan(0.2);
    expect(crawl.collected_text).toContain('blossom end rot');

    const budget = await quarry.post(SEARCH, {
      ...garden,
      query: 'tomato plants watering pests soil compost',
      adaptive_crawling: true,
      adaptive: { max_pages: 2 },
    });
    expect(budget.body.results[0].enhanced.adaptive_crawl).toMatchObject({
      pages_visited: 2,
      stopped_because: 'max_pages',
    });
  });

  it('scrolls with the browser when it can, and otherwise says per result why not', async () => {
    // The request's own deadline (15 s) must end a slow browser start before the test's 30 s limit does.
    const res = await quarry.post(SEARCH, {
      ...garden,
      timeout: 15,
      virtual_scrolling: true,
      scroll: { max_scrolls: 2, scroll_delay_ms: 50 },
    });
    expect(res.status).toBe(200);
    const scroll = res.body.results[0].enhanced.virtual_scroll;
    if (scroll.used) expect(scroll.available).toBe(true);
    else expect(scroll.reason).toMatch(/unavailable|failed/);
  });
});

describe('language-model strategy and filter', () => {
  it('refuses with 503 UNAVAILABLE and a clear message when no model is configured', async () => {
    for (const body of [
      { ...garden, extraction_strategy: 'llm' },
      { ...garden, content_filter: 'llm' },
    ]) {
      const res = await quarry.post(SEARCH, body);
      expect(res.status).toBe(503);
      expect(res.body.error.code).toBe('UNAVAILABLE');
      expect(res.body.error.message).toMatch(/needs a language model/);
    }
  });

  it('extracts schema-guided JSON with the configured model', async () => {
    llm.script(
      chat({
        seedlings: [
          { name: 'Sungold', price: 4.99 },
          { name: 'Brandywine', price: 5.49 },
        ],
      }),
    );
    const schema = {
      type: 'object',
      properties: {
        seedlings: {
          type: 'array',
          items: { type: 'object', properties: { name: { type: 'string' }, price: { type: 'number' } } },
        },
      },
    };
    const res = await withModel.post(SEARCH, {
      ...garden,
      extraction_strategy: 'llm',
      llm_instruction: 'List the seedlings for sale with their prices',
      llm_schema: schema,
    });
    expect(res.status).toBe(200);
    expect(res.body.results[0].enhanced.extraction).toEqual({
      strategy: 'llm',
      data: {
        seedlings: [
          { name: 'Sungold', price: 4.99 },
          { name: 'Brandywine', price: 5.49 },
        ],
      },
      model: 'scripted-7b',
    });
    const sent = JSON.stringify(llm.received.at(-1)!.body);
    expect(sent).toContain('List the seedlings for sale');
    expect(sent).toContain('Sungold');
    expect(sent).toContain('JSON Schema');
    expect(sent).toContain('seedlings');
  });

  it('keeps the blocks the model picks with the llm filter, and reports a model failure on the result', async () => {
    llm.script(chat({ keep: [0, 1] }));
    const res = await withModel.post(SEARCH, { ...garden, content_filter: 'llm', markdown_generation: true });
    expect(res.status).toBe(200);
    const content = res.body.results[0].enhanced.content;
    expect(content).toMatchObject({ filter: 'llm', blocks_kept: 2, model: 'scripted-7b' });
    const listing = JSON.stringify(llm.received.at(-1)!.body);
    expect(listing).toContain('[0]');

    llm.script({ status: 500, json: { error: { message: 'model crashed' } } });
    const failed = await withModel.post(SEARCH, { ...garden, content_filter: 'llm' });
    expect(failed.status).toBe(200);
    expect(failed.body.results[0].enhanced.status).toBe('failed');
    expect(failed.body.results[0].enhanced.errors[0].step).toBe('content_filter');
  });
});

describe('bad input', () => {
  it('answers 400 naming the problem', async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ extraction_strategy: 'xpath' }, /extraction_strategy/],
      [{ content_filter: 'magic' }, /content_filter/],
      [{ extraction_strategy: 'json_css' }, /css_schema: required/],
      [
        { extraction_strategy: 'json_css', css_schema: { fields: [{ name: 'a', selector: 'p' }] } },
        /css_schema\.baseSelector: is required/,
      ],
      [
        {
          extraction_strategy: 'json_css',
          css_schema: { baseSelector: 'div', fields: [{ name: 'a', selector: 'p[' }] },
        },
        /css_schema\.fields\[0\]\.selector: invalid CSS selector "p\["/,
      ],
      [
        {
          extraction_strategy: 'json_css',
          css_schema: { baseSelector: 'div', fields: [{ name: 'a', type: 'attribute', selector: 'a' }] },
        },
        /fields\[0\]\.attribute/,
      ],
      [
        {
          extraction_strategy: 'json_css',
          css_schema: { baseSelector: 'div', fields: [{ name: 'a', type: 'nested', selector: 'a' }] },
        },
        /fields\[0\]\.fields/,
      ],
      [
        { extraction_strategy: 'regex', custom_patterns: { broken: '(unclosed' } },
        /custom_patterns\.broken: invalid regular expression/,
      ],
      [
        { extraction_strategy: 'regex', custom_patterns: { evil: '(a+)+$' } },
        /custom_patterns\.evil: refused.*nested quantifier/,
      ],
      [
        { extraction_strategy: 'regex', custom_patterns: { alt: '(a|ab)*c' } },
        /custom_patterns\.alt: refused.*alternation/,
      ],
      [{ extraction_strategy: 'regex', regex_patterns: ['zipcode'] }, /regex_patterns: unknown pattern "zipcode"/],
      [
        { css_schema: { baseSelector: 'div', fields: [] } },
        /css_schema: only used with extraction_strategy "json_css"/,
      ],
      [{ adaptive: { max_pages: 0 }, adaptive_crawling: true }, /max_pages/],
      [{ link_analysis: 'yes' }, /link_analysis/],
      [{ engines: ['nope'] }, /unknown engine/],
    ];
    for (const [extra, message] of cases) {
      const res = await quarry.post(SEARCH, { ...garden, ...extra });
      expect(res.status, JSON.stringify(extra)).toBe(400);
      expect(
        `${res.body.error.message} ${JSON.stringify(res.body.error.details ?? '')}`,
        JSON.stringify(extra),
      ).toMatch(message);
    }
  });
});
