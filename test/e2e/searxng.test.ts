/**
 * The SearXNG-compatible surface end to end over HTTP against the sandbox web:
 * LangChain's own SearXNG tool pointed at <base>/searxng, then the requests
 * Open WebUI, LibreChat and Perplexica send (their query strings and headers,
 * as their sources build them), each checked for the JSON fields that tool reads;
 * format and key refusals; URL keys (off by default, search-only, never logged); /config;
 * what SearXNG itself does (every merged result, each engine's page N only, /autocompleter).
 */
import { Writable } from 'node:stream';
import { join } from 'node:path';
import { SearxngSearch } from '@langchain/community/tools/searxng_search';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../core/paths.js';
import { playDefaultEngines, playRecording, RECORDINGS } from '../recordings.js';
import { prepareAnswer } from '../sandbox/engine-playback.js';
import { startSandboxWeb, type SandboxWeb } from '../sandbox/sandbox-web.js';
import { startQuarry, TEST_KEY, type RunningQuarry } from './harness.js';

const URL_KEY = 'searxng-url-key-0123456789';
let web: SandboxWeb;
let quarry: RunningQuarry;
const logLines: string[] = [];

beforeAll(async () => {
  web = await startSandboxWeb();
  playDefaultEngines(web);
  web.playEngine('bing_news', {
    file: join(PACKAGE_ROOT, 'engines', 'bing_news', 'fixtures', 'news.rss'),
    contentType: 'application/rss+xml',
  });
  const logger = pino(
    { level: 'info' },
    new Writable({ write: (chunk, _encoding, done) => (logLines.push(String(chunk)), done()) }),
  );
  quarry = await startQuarry(
    web,
    { urlKeys: [URL_KEY], search: { defaultEngines: ['duckduckgo', 'bing', 'wikipedia'] } },
    { logger },
  );
});

afterAll(async () => {
  await quarry?.close();
  await web?.close();
});

/** A request as a tool sends it: no Quarry key unless the tool sends one. */
async function raw(path: string, init: RequestInit = {}): Promise<{ status: number; body: any; headers: Headers }> {
  const response = await fetch(quarry.url + path, init);
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text), headers: response.headers };
}

function expectSearxngShape(body: any): void {
  expect(body).toMatchObject({ query: expect.any(String), number_of_results: expect.any(Number) });
  for (const list of ['results', 'answers', 'corrections', 'infoboxes', 'suggestions', 'unresponsive_engines'])
    expect(Array.isArray(body[list]), list).toBe(true);
  expect(body.results.length).toBeGreaterThan(0);
  for (const result of body.results) {
    expect(result).toMatchObject({
      url: expect.stringMatching(/^https?:\/\//),
      title: expect.any(String),
      content: expect.any(String),
      engine: expect.any(String),
      category: expect.any(String),
    });
    expect(result.engines).toContain(result.engine);
    expect(result.positions.length).toBe(result.engines.length);
    expect(typeof result.score).toBe('number');
    expect(result.publishedDate === null || typeof result.publishedDate === 'string').toBe(true);
  }
}

describe('LangChain', () => {
  it("@langchain/community's SearxngSearch, pointed at <base>/searxng, returns Quarry's results", async () => {
    delete process.env.SEARXNG_API_BASE;
    const tool = new SearxngSearch({
      apiBase: `${quarry.url}/searxng`,
      params: { numResults: 5 },
      headers: { 'X-API-Key': TEST_KEY },
    });
    const output = await tool.invoke('hello');
    const items = JSON.parse(`[${output}]`) as Array<{ title: string; link: string; snippet: string }>;
    expect(items).toHaveLength(5);
    const direct = await quarry.get('/searxng/search?q=hello&format=json');
    expect(items.map((i) => i.link)).toEqual(direct.body.results.slice(0, 5).map((r: any) => r.url));
    expect(items[0]!.title).toBe(direct.body.results[0].title);
  });
});

describe('the requests other tools send', () => {
  it('Open WebUI: GET <query URL> with its parameters and no key header — through a URL key', async () => {
    // open_webui/retrieval/web/searxng.py: the query URL's own parameters are dropped, these are sent, results sorted
    // by score.
    const params = new URLSearchParams({
      q: 'hello',
      format: 'json',
      pageno: '1',
      safesearch: '1',
      language: 'en-US',
      time_range: '',
      categories: '',
      theme: 'simple',
      image_proxy: '0',
    });
    const res = await raw(`/searxng/k/${URL_KEY}/search?${params}`, {
      headers: {
        'User-Agent': 'Open WebUI (https://github.com/open-webui/open-webui) RAG Bot',
        Accept: 'text/html',
        'Accept-Language': 'en-US,en;q=0.5',
        Connection: 'keep-alive',
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expectSearxngShape(res.body);
    expect(res.headers.get('x-quarry-ignored-fields')).toBe('theme, image_proxy');
  });

  it('LibreChat: GET <instance>/search with X-API-Key and its fixed engines, categories, language and safesearch', async () => {
    // @librechat/agents createSearXNGAPI: reads results[].title/url/content/publishedDate, img_src for images,
    // suggestions.
    const params = new URLSearchParams({
      q: 'hello',
      format: 'json',
      pageno: '1',
      categories: 'general',
      language: 'all',
      safesearch: '0',
      engines: 'google,bing,duckduckgo',
    });
    const res = await raw(`/searxng/search?${params}`, {
      headers: { 'Content-Type': 'application/json', 'X-API-Key': TEST_KEY },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expectSearxngShape(res.body);
    const used = new Set(res.body.results.flatMap((r: any) => r.engines));
    expect([...used].every((engine) => ['google', 'bing', 'duckduckgo'].includes(engine as string))).toBe(true);
    expect(used.has('bing') && used.has('duckduckgo')).toBe(true);
  });

  it('Perplexica: GET <searxng>/search with format, q and its engine names ("bing news"), no headers — through a URL key', async () => {
    // Perplexica's searchSearxng: reads results[].title/url/content/img_src/thumbnail_src/iframe_src and suggestions.
    const params = new URLSearchParams({
      format: 'json',
      q: 'hello',
      engines: 'bing news',
      categories: 'news',
      pageno: '1',
      language: 'en',
    });
    const res = await raw(`/searxng/k/${URL_KEY}/search?${params}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expectSearxngShape(res.body);
    expect(res.body.results.every((r: any) => r.engine === 'bing_news' && r.category === 'news')).toBe(true);
  });

  it('SearXNG form posts: POST application/x-www-form-urlencoded is read like the query string', async () => {
    const body = new URLSearchParams({
      q: 'hello',
      format: 'json',
      engines: 'duckduckgo',
      unknownthing: 'x',
    }).toString();
    const res = await raw('/searxng/search', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-api-key': TEST_KEY },
      body,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expectSearxngShape(res.body);
    expect(res.body.results.every((r: any) => r.engines.includes('duckduckgo'))).toBe(true);
    expect(res.headers.get('x-quarry-ignored-fields')).toBe('unknownthing');
  });

  it("engines Quarry lacks are reported as unresponsive, with SearXNG's [engine, reason] pairs", async () => {
    const res = await quarry.get('/searxng/search?q=hello&format=json&engines=duckduckgo,yep');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.unresponsive_engines).toEqual([['yep', 'unknown engine']]);
  });
});

describe('refusals', () => {
  it('format other than json is a 400 naming the format', async () => {
    for (const format of ['csv', 'rss', 'html']) {
      const res = await quarry.get(`/searxng/search?q=hello&format=${format}`);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('INVALID_INPUT');
      expect(res.body.error.message).toMatch(/format: only format=json is served/);
    }
  });

  it('no q is a 400 naming q; a bad language names language', async () => {
    expect((await quarry.get('/searxng/search?format=json')).body.error.message).toMatch(/\bq\b/);
    expect((await quarry.get('/searxng/search?q=a&language=%3Cx%3E')).body.error.message).toMatch(/language/);
  });

  it('without a key (header or URL) it is 401; a form body on a JSON-only route is still 415', async () => {
    expect((await raw('/searxng/search?q=hello')).status).toBe(401);
    const form = await raw('/api/v1/search/', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-api-key': TEST_KEY },
      body: 'query=hello',
    });
    expect(form.status).toBe(415);
  });
});

describe('URL keys', () => {
  it('a wrong URL key is 401; a URL key is no API key, and an API key is no URL key', async () => {
    expect((await raw('/searxng/k/not-the-key-000000000/search?q=hello')).status).toBe(401);
    expect((await raw(`/searxng/k/${TEST_KEY}/search?q=hello`)).status).toBe(401);
    expect((await raw('/api/v1/search/engines', { headers: { 'x-api-key': URL_KEY } })).status).toBe(401);
  });

  it('never reach the log', async () => {
    await raw(`/searxng/k/${URL_KEY}/search?q=hello`);
    const log = logLines.join('');
    expect(log).toContain('/searxng/k/[redacted]/search');
    expect(log).not.toContain(URL_KEY);
  });

  it('are off unless configured: a clear 401 naming the setting', async () => {
    const plain = await startQuarry(web);
    try {
      const res = await raw2(plain.url, `/searxng/k/${URL_KEY}/search?q=hello`);
      expect(res.status).toBe(401);
      expect(res.body.error.message).toMatch(/urlKeys/);
    } finally {
      await plain.close();
    }
  });
});

describe('as SearXNG answers', () => {
  it('answers every merged result, whether or not it holds the query words, and number_of_results counts them', async () => {
    // The recorded Bing page is about "hello": no result mentions levain, and a relevance filter would drop them all.
    const res = await quarry.get('/searxng/search?q=levain&format=json&engines=bing');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const all = await quarry.post('/api/v1/search/', {
      query: 'levain',
      engines: ['bing'],
      relevance_filter: false,
      scrape_content: false,
      max_results: 100,
      cache_ttl: 0,
    });
    const urls = all.body.results.map((r: any) => r.url);
    expect(urls.length).toBeGreaterThan(3);
    expect(res.body.results.map((r: any) => r.url).sort()).toEqual([...urls].sort());
    expect(res.body.number_of_results).toBe(res.body.results.length);
  });

  it('asks each engine for the page pageno names, and that page only', async () => {
    const pagesAsked = async (pageno: number): Promise<Array<string | null>> => {
      const before = web.engineRequests('bing').length;
      const res = await quarry.get(`/searxng/search?q=sourdough+starter&format=json&engines=bing&pageno=${pageno}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return web
        .engineRequests('bing')
        .slice(before)
        .map((r) => new URL(r.url).searchParams.get('first'));
    };
    // Bing's page N starts at result (N-1)×10+1; its first page sends no offset.
    expect(await pagesAsked(1)).toEqual([null]);
    expect(await pagesAsked(2)).toEqual(['11']);
    expect(await pagesAsked(3)).toEqual(['21']);
  });

  it('answers a repeated identical query from the cache; another pageno asks the engine', async () => {
    const asked = async (pageno: number): Promise<number> => {
      const before = web.engineRequests('bing').length;
      const res = await quarry.get(`/searxng/search?q=rye+bread+cache&format=json&engines=bing&pageno=${pageno}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.results.length).toBeGreaterThan(0);
      return web.engineRequests('bing').length - before;
    };
    expect(await asked(1)).toBe(1);
    expect(await asked(1)).toBe(0);
    expect(await asked(2)).toBe(1);
  });

  it('/autocompleter answers [q, [suggestions…]] from the engines that suggest, with a key header or a URL key', async () => {
    const suggestions = Buffer.from(JSON.stringify(['sourd', ['sourdough starter', 'sourdough bread recipe']]));
    web.answerEngine('duckduckgo', (url) =>
      url.pathname.endsWith('/ac/')
        ? { body: suggestions, contentType: 'application/json', status: 200 }
        : prepareAnswer(RECORDINGS.duckduckgo!),
    );
    try {
      const direct = await quarry.get('/api/v1/search/autocomplete?q=sourd');
      expect(direct.body.suggestions).toEqual(expect.arrayContaining(['sourdough starter', 'sourdough bread recipe']));
      for (const path of ['/searxng/autocompleter?q=sourd', `/searxng/k/${URL_KEY}/autocompleter?q=sourd`]) {
        const res = await quarry.get(path);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(res.body).toEqual(['sourd', direct.body.suggestions]);
      }
      const form = await raw(`/searxng/k/${URL_KEY}/autocompleter`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'q=sourd',
      });
      expect(form.body).toEqual(['sourd', direct.body.suggestions]);
      expect((await quarry.get('/searxng/autocompleter?q=')).body).toEqual(['', []]);
    } finally {
      playRecording(web, 'duckduckgo');
    }
  });

  it('under a valid URL key an unknown path is 404; under a wrong key it is 401', async () => {
    const unknown = await raw(`/searxng/k/${URL_KEY}/stats`);
    expect(unknown.status, JSON.stringify(unknown.body)).toBe(404);
    expect((await raw('/searxng/k/not-the-key-000000000/stats')).status).toBe(401);
    expect((await raw('/searxng/nonsense')).status).toBe(401);
  });

  it('a JSON body that is not an object is a 400 naming the body, on every kind of route', async () => {
    for (const path of ['/api/v1/searxng/search', '/searxng/search', '/searxng/autocompleter', '/api/v1/search/']) {
      for (const body of ['null', '[]', '7']) {
        const res = await quarry.post(path, body);
        expect(res.status, `${path} ${body}: ${JSON.stringify(res.body)}`).toBe(400);
        expect(res.body.error.message).toMatch(/body must be a JSON object/);
      }
    }
  });
});

describe('/config', () => {
  it('lists engines and categories as SearXNG does', async () => {
    const res = await raw(`/searxng/k/${URL_KEY}/config`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.categories).toEqual(expect.arrayContaining(['general', 'news', 'images', 'videos', 'science']));
    const bing = res.body.engines.find((e: any) => e.name === 'bing');
    expect(bing).toMatchObject({
      enabled: true,
      categories: ['general'],
      paging: expect.any(Boolean),
      timeout: expect.any(Number),
    });
    expect(res.body.engines.find((e: any) => e.name === 'youtube').categories).toContain('videos');
  });
});

async function raw2(base: string, path: string): Promise<{ status: number; body: any }> {
  const response = await fetch(base + path);
  return { status: response.status, body: await response.json() };
}
