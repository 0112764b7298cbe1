/**
 * The Neural API end to end, offline, with the embedded model: ranking by
 * meaning over pages served by the sandbox web, filters, highlights anchored
 * in their content, similar pages, next-search prediction, the language-model
 * paths against a scripted local model server, and the same tools over MCP.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConfigInput } from '../../app/config.js';
import { startScriptedServer, type ScriptedServer } from '../../services/llm/fixtures/scripted-server.js';
import { MEANING_PAGES, renderMeaningPage } from '../sandbox/meaning-pages.js';
import { startSandboxWeb, type SandboxWeb } from '../sandbox/sandbox-web.js';
import { mergeLayers } from '../../app/config.js';
import { startQuarry, TEST_KEY, type RunningQuarry } from './harness.js';
import { spawnMcpStdio } from './mcp-stdio.js';
import { recordProgress } from './mcp-progress.js';
import { until } from '../sandbox/until.js';

let web: SandboxWeb;
let quarry: RunningQuarry;
let withModel: RunningQuarry;
let llm: ScriptedServer;
let scratch: string;
/** A second key the shared instance accepts, with a search history of its own. */
const OTHER_KEY = 'other-key-0123456789';

const [CPR, BRIDGE, BREATHING] = MEANING_PAGES;
/** Paraphrases of the first-aid page that share (almost) no words with it, and some with the decoys. */
const PARAPHRASE = 'help for a person whose heart stopped';
const _PARAPHRASE_2 = 'what to do if somebody collapses and has no pulse';

function neuralConfig(): ConfigInput {
  return {
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
  };
}

beforeAll(async () => {
  web = await startSandboxWeb();
  for (const page of MEANING_PAGES) web.addPage(page.path, renderMeaningPage(page));
  // The engine lists the decoys first, as a lexical engine would.
  const items = [BREATHING!, BRIDGE!, CPR!].map((p) => ({
    link: `${web.url}${p.path}`,
    name: p.title,
    summary: p.paragraphs[0],
  }));
  web.addPage('/api/find', JSON.stringify({ items }), { contentType: 'application/json' });
  scratch = mkdtempSync(join(tmpdir(), 'quarry-neural-'));
  const autocomplete = join(scratch, 'duckduckgo-ac.json');
  writeFileSync(autocomplete, JSON.stringify([{ phrase: 'cpr steps' }, { phrase: 'cpr training near me' }]));
  web.playEngine('duckduckgo', { file: autocomplete, contentType: 'application/json' }, { rewriteLinks: false });
  llm = await startScriptedServer();
  quarry = await startQuarry(web, neuralConfig(), { apiKeys: [TEST_KEY, OTHER_KEY] });
  withModel = await startQuarry(
    web,
    mergeLayers(neuralConfig() as Record<string, unknown>, {
      llm: {
        fast: { provider: 'openai-compatible', baseUrl: `${llm.origin}/v1`, model: 'scripted-7b', maxRetries: 0 },
      },
    }) as ConfigInput,
  );
}, 60_000);

afterAll(async () => {
  await quarry?.close();
  await withModel?.close();
  await llm?.close();
  await web?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

function expectAnchored(content: string, h: { text: string; start_index: number }): void {
  expect([...content].slice(h.start_index, h.start_index + [...h.text].length).join('')).toBe(h.text);
}

describe('neural search', () => {
  it('ranks the page that means what the query asks above pages that share its words', async () => {
    const res = await quarry.post('/api/v1/neural/search', { query: PARAPHRASE, use_autoprompt: false });
    expect(res.status).toBe(200);
    expect(res.body.search_type).toBe('neural');
    console.error(
      JSON.stringify(
        res.body.results.map((r: any) => [
          r.url.slice(-25),
          r.score,
          r.semantic_score,
          r.lexical_score,
          r.content.length,
        ]),
      ),
    );
    expect(res.body.results.map((r: any) => r.url)).toHaveLength(3);
    expect(res.body.results[0].url).toBe(`${web.url}${CPR!.path}`);
    // The decoys share more words with the query: lexical order alone would put one of them first.
    const lexical = [...res.body.results].sort((a: any, b: any) => b.lexical_score - a.lexical_score);
    expect(lexical[0].url).not.toBe(`${web.url}${CPR!.path}`);
    const top = res.body.results[0];
    expect(top.content).toContain('chest compressions');
    expect(Date.parse(top.published_date)).toBe(Date.parse(CPR!.published));
    expect(top.author).toBe(CPR!.author);
    expect(res.body.embedding_model).toBe('quarry/glove-static-100d');
    expect(res.body.autoprompt_used).toBe(false);
    expect(res.body.model_used).toBe('none');
  });

  it('expands the query by rules when no language model is configured, and says so', async () => {
    const res = await quarry.post('/api/v1/neural/search', {
      query: 'How do I help someone who stopped breathing?',
      num_results: 2,
    });
    expect(res.status).toBe(200);
    expect(res.body.expanded_queries).toContain('help someone stopped breathing');
    expect(res.body.autoprompt_used).toBe(true);
    expect(res.body.model_used).toBe('rules');
    expect(res.body.results).toHaveLength(2);
  });

  it('filters by domain and by published date (pages without a date are left out of a window)', async () => {
    const excluded = await quarry.post('/api/v1/neural/search', {
      query: PARAPHRASE,
      exclude_domains: ['127.0.0.1'],
      use_autoprompt: false,
    });
    expect(excluded.status).toBe(200);
    expect(excluded.body.results).toEqual([]);
    const included = await quarry.post('/api/v1/neural/search', {
      query: PARAPHRASE,
      include_domains: ['127.0.0.1'],
      use_autoprompt: false,
    });
    expect(included.body.results).toHaveLength(3);
    // A domain written as the site's URL, as every area's domain field takes it.
    const asUrl = await quarry.post('/api/v1/neural/search', {
      query: PARAPHRASE,
      exclude_domains: [`${web.url}/`],
      use_autoprompt: false,
    });
    expect(asUrl.status).toBe(200);
    expect(asUrl.body.results).toEqual([]);
    const dated = await quarry.post('/api/v1/neural/search', {
      query: PARAPHRASE,
      start_published_date: '2024-01-01',
      end_published_date: '2024-12-31',
      use_autoprompt: false,
    });
    expect(dated.body.results.map((r: any) => r.url)).toEqual([`${web.url}${CPR!.path}`]);
  });

  it("adds highlights taken from each result's content", async () => {
    const res = await quarry.post('/api/v1/neural/search', {
      query: 'chest compressions rhythm',
      include_highlights: true,
      use_autoprompt: false,
      num_results: 3,
    });
    expect(res.status).toBe(200);
    for (const result of res.body.results) {
      expect(result.highlights.length).toBeGreaterThan(0);
      for (const h of result.highlights) expect(result.content).toContain(h);
    }
    expect(res.body.results[0].url).toBe(`${web.url}${CPR!.path}`);
    expect(res.body.results[0].highlights.join(' ')).toMatch(/chest compressions/);
  });

  it('shows the embedding model in use in the features registry', async () => {
    const features = await quarry.get('/api/v1/enhanced/features');
    expect(features.body.features.embeddings).toMatchObject({
      available: true,
      info: { id: 'quarry/glove-static-100d', source: 'embedded', dimensions: 100 },
    });
    expect(features.body.features.llm.available).toBe(false);
    expect(features.body.features.llm.detail).toMatch(/extractive/);
  });

  it('rejects bad input with 400s that name the problem', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ query: '' }, /query/],
      [{ query: 'x', num_results: 51 }, /num_results/],
      [{ query: 'x', num_results: '5' }, /num_results/],
      [{ query: 'x', category: 'sports' }, /category/],
      [{ query: 'x', start_published_date: 'last week' }, /start_published_date/],
      [
        { query: 'x', start_published_date: '2024-05-01', end_published_date: '2024-01-01' },
        /start_published_date must not be after/,
      ],
      [{ query: 'x', include_domains: ['not a domain'] }, /include_domains/],
    ];
    for (const [body, message] of cases) {
      const res = await quarry.post('/api/v1/neural/search', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(res.body.error)).toMatch(message);
    }
  });

  it('fans a category out to its engine group, and reports the engines that failed', async () => {
    const res = await quarry.post('/api/v1/neural/search', {
      query: 'chip makers',
      category: 'finance',
      use_autoprompt: false,
      timeout: 10,
    });
    expect(res.status).toBe(200);
    expect(res.body.engines_used).toEqual(expect.arrayContaining(['yahoo_finance', 'bing_news', 'google_news']));
    expect(res.body.engines_failed.length).toBeGreaterThan(0);
    expect(Object.keys(res.body.engine_errors)).toEqual(res.body.engines_failed);
    const categories = await quarry.get('/api/v1/neural/categories');
    expect(categories.body.categories).toEqual(['general', 'news', 'academic', 'tech', 'finance']);
    expect(categories.body.engines.tech).toEqual(expect.arrayContaining(['github', 'stackoverflow']));
    expect(categories.body.engines.academic).toEqual(expect.arrayContaining(['arxiv', 'pubmed']));
  });
});

describe('highlights', () => {
  it('returns the passages that answer the query, each start_index pointing at its text in code points', async () => {
    const content = `🚑 ${CPR!.paragraphs.join('\n\n')}\n\n${BRIDGE!.paragraphs.join(' ')} 𝔈𝔫𝔡.`;
    for (const [query, unit] of [
      ['how fast should I press on the chest', 'sentence'],
      ['what does a defibrillator do', 'passage'],
      ['bridge cables', 'sentence'],
    ] as const) {
      const res = await quarry.post('/api/v1/neural/highlights', { query, content, num_highlights: 4, unit });
      expect(res.status).toBe(200);
      expect(res.body.highlights.length).toBeGreaterThan(0);
      for (const h of res.body.highlights) expectAnchored(content, h);
      const relevances = res.body.highlights.map((h: any) => h.relevance);
      expect([...relevances].sort((a, b) => b - a)).toEqual(relevances);
    }
    const chest = await quarry.post('/api/v1/neural/highlights', {
      query: 'how fast should I press on the chest',
      content,
    });
    expect(chest.body.highlights).toHaveLength(3);
    expect(chest.body.highlights[0].text).toMatch(/press hard and fast/);
  });

  it('rejects missing content and out-of-range counts', async () => {
    expect((await quarry.post('/api/v1/neural/highlights', { query: 'x' })).status).toBe(400);
    expect(
      (await quarry.post('/api/v1/neural/highlights', { query: 'x', content: 'y', num_highlights: 11 })).status,
    ).toBe(400);
  });
});

describe("older SDKs' field names over HTTP", () => {
  it('takes document as content on highlights', async () => {
    const content = CPR!.paragraphs.join('\n\n');
    const asContent = await quarry.post('/api/v1/neural/highlights', {
      query: 'how fast should I press on the chest',
      content,
    });
    const asDocument = await quarry.post('/api/v1/neural/highlights', {
      query: 'how fast should I press on the chest',
      document: content,
    });
    expect(asDocument.status).toBe(200);
    expect(asDocument.headers.get('x-quarry-ignored-fields')).toBeNull();
    expect(asDocument.body.highlights).toEqual(asContent.body.highlights);
  });

  it('takes top_k as num_results on search and similar, and names top_k when it is out of bounds', async () => {
    const search = await quarry.post('/api/v1/neural/search', { query: PARAPHRASE, use_autoprompt: false, top_k: 1 });
    expect(search.status).toBe(200);
    expect(search.body.results).toHaveLength(1);
    const similar = await quarry.post('/api/v1/neural/similar', { text: CPR!.paragraphs.join(' '), top_k: 1 });
    expect(similar.status).toBe(200);
    expect(similar.body.similar.length).toBeLessThanOrEqual(1);
    const tooMany = await quarry.post('/api/v1/neural/search', { query: PARAPHRASE, top_k: 51 });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.message).toMatch(/^invalid input: top_k: /);
    const both = await quarry.post('/api/v1/neural/search', { query: PARAPHRASE, top_k: 2, num_results: 3 });
    expect(both.status).toBe(400);
    expect(both.body.error.message).toMatch(/top_k: is another name for num_results/);
  });
});

describe('similar', () => {
  it('needs exactly one of url or text', async () => {
    const both = await quarry.post('/api/v1/neural/similar', { url: `${web.url}${CPR!.path}`, text: 'x' });
    expect(both.status).toBe(400);
    expect(both.body.error.message).toMatch(/exactly one of url or text, not both/);
    const neither = await quarry.post('/api/v1/neural/similar', {});
    expect(neither.status).toBe(400);
    expect(neither.body.error.message).toMatch(/neither/);
  });

  it('finds pages like a text, most similar first', async () => {
    const res = await quarry.post('/api/v1/neural/similar', {
      text: 'Resuscitation guide: when a patient has no heartbeat, push on the middle of the chest and get an AED.',
      num_results: 3,
    });
    expect(res.status).toBe(200);
    expect(res.body.source).toBe('text');
    expect(res.body.similar[0].url).toBe(`${web.url}${CPR!.path}`);
    expect(res.body.similar[0].score).toBeGreaterThan(res.body.similar[2].score);
    expect(res.body.queries.length).toBeGreaterThan(0);
  });

  it('reads a source URL and leaves the source out unless asked', async () => {
    const source = `${web.url}${CPR!.path}`;
    const res = await quarry.post('/api/v1/neural/similar', { url: source });
    expect(res.status).toBe(200);
    expect(res.body.source).toBe(source);
    expect(res.body.similar.map((r: any) => r.url)).not.toContain(source);
    const kept = await quarry.post('/api/v1/neural/similar', { url: source, exclude_source: false });
    expect(kept.body.similar[0].url).toBe(source);
  });

  it('answers a source it cannot read with a 4xx/5xx that names the reason', async () => {
    const refused = await quarry.post('/api/v1/neural/similar', { url: 'http://10.1.2.3/page' });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toMatch(/10\.1\.2\.3/);
  });
});

describe('predictive', () => {
  it('predicts next searches from autocomplete and the context, with a confidence and a reason each', async () => {
    const res = await quarry.post('/api/v1/neural/predictive', {
      context: 'Learning first aid: chest compressions and the automated external defibrillator',
      recent_searches: ['first aid course', 'cpr'],
      num_predictions: 5,
    });
    expect(res.status).toBe(200);
    expect(res.body.predictions.length).toBeGreaterThan(0);
    expect(res.body.predictions.length).toBeLessThanOrEqual(5);
    expect(res.body.context_used).toBe(true);
    expect(res.body.model_used).toBe('extractive');
    const queries = res.body.predictions.map((p: any) => p.query);
    expect(queries).toContain('cpr steps');
    for (const p of res.body.predictions) {
      expect(p.confidence).toBeGreaterThan(0);
      expect(p.confidence).toBeLessThanOrEqual(1);
      expect(p.reason.length).toBeGreaterThan(5);
    }
    expect(queries).not.toContain('cpr');
    expect(res.body.predictions.map((p: any) => p.reason).join(' ')).toMatch(/autocomplete/);
  });

  it('with neither context nor recent searches, predicts from the searches this key made here', async () => {
    await quarry.post('/api/v1/neural/search', { query: 'cpr', use_autoprompt: false, num_results: 1 });
    const res = await quarry.post('/api/v1/neural/predictive', {});
    expect(res.status).toBe(200);
    expect(res.body.context_used).toBe(false);
    expect(res.body.recent_searches_used.at(-1)).toBe('cpr');
    expect(res.body.predictions.map((p: any) => p.query)).toContain('cpr steps');

    // Another key has its own (empty) history: no predictions, still a 200.
    const other = await quarry.post('/api/v1/neural/predictive', {}, { 'x-api-key': OTHER_KEY });
    expect(other.status).toBe(200);
    expect(other.body).toMatchObject({ predictions: [], context_used: false, recent_searches_used: [] });
  });
});

describe('the local page index', () => {
  it('indexes every page read and serves it when the engines find nothing', async () => {
    // Earlier searches read the three pages; wait until the background indexer has written them.
    await until(
      'the page indexer to write the three pages',
      async () => {
        const stats = (await quarry.get('/api/v1/enhanced/performance')).body.runtime.page_indexer;
        return stats.indexed >= 3 && stats.queued === 0;
      },
      10_000,
    );
    const features = await quarry.get('/api/v1/enhanced/features');
    expect(features.body.features.page_index.info.indexed).toBeGreaterThanOrEqual(3);
    web.addPage('/api/find', JSON.stringify({ items: [] }), { contentType: 'application/json' });
    try {
      const res = await quarry.post('/api/v1/neural/search', { query: PARAPHRASE, use_autoprompt: false });
      expect(res.status).toBe(200);
      expect(res.body.results.length).toBeGreaterThan(0);
      expect(res.body.results.every((r: any) => r.source === 'local_index')).toBe(true);
      expect(res.body.results[0].url).toBe(`${web.url}${CPR!.path}`);
      expect(Date.parse(res.body.results[0].published_date)).toBe(Date.parse(CPR!.published));
      const dated = await quarry.post('/api/v1/neural/search', {
        query: PARAPHRASE,
        use_autoprompt: false,
        end_published_date: '2023-12-31',
      });
      expect(dated.body.results.map((r: any) => r.url)).toEqual([`${web.url}${BRIDGE!.path}`]);
      const similar = await quarry.post('/api/v1/neural/similar', { text: CPR!.paragraphs.join(' '), num_results: 2 });
      expect(similar.body.similar[0].url).toBe(`${web.url}${CPR!.path}`);
      expect(similar.body.similar[0].source).toBe('local_index');
    } finally {
      const items = [BREATHING!, BRIDGE!, CPR!].map((p) => ({
        link: `${web.url}${p.path}`,
        name: p.title,
        summary: p.paragraphs[0],
      }));
      web.addPage('/api/find', JSON.stringify({ items }), { contentType: 'application/json' });
    }
  });
});

describe('with a language model configured', () => {
  it('expands the query with the model and names it', async () => {
    llm.script({
      json: {
        id: 'x',
        model: 'scripted-7b',
        choices: [
          {
            index: 0,
            finish_reason: 'stop',
            message: {
              role: 'assistant',
              content: JSON.stringify({ queries: ['cardiac arrest first aid', 'how to do CPR'] }),
            },
          },
        ],
      },
    });
    const res = await withModel.post('/api/v1/neural/search', { query: PARAPHRASE, num_results: 3 });
    expect(res.status).toBe(200);
    expect(res.body.expanded_queries).toEqual(['cardiac arrest first aid', 'how to do CPR']);
    expect(res.body.model_used).toBe('scripted-7b');
    expect(res.body.results[0].url).toBe(`${web.url}${CPR!.path}`);
    const sent = llm.received.at(-1)!.body as any;
    expect(JSON.stringify(sent.messages)).toContain(PARAPHRASE);
  });

  it('falls back to rules when the model fails, and still answers', async () => {
    llm.script({ status: 500, json: { error: { message: 'model crashed' } } });
    const res = await withModel.post('/api/v1/neural/search', {
      query: 'How do I help someone who stopped breathing?',
      num_results: 2,
    });
    expect(res.status).toBe(200);
    expect(res.body.model_used).toBe('rules');
    expect(res.body.expanded_queries).toContain('help someone stopped breathing');
  });

  it('predicts with the model and reports it', async () => {
    llm.script({
      json: {
        id: 'y',
        model: 'scripted-7b',
        choices: [
          {
            index: 0,
            finish_reason: 'stop',
            message: {
              role: 'assistant',
              content: JSON.stringify({
                predictions: [{ query: 'aed locations nearby', reason: 'Next step after learning CPR.' }],
              }),
            },
          },
        ],
      },
    });
    const res = await withModel.post('/api/v1/neural/predictive', { recent_searches: ['cpr'] });
    expect(res.status).toBe(200);
    expect(res.body.model_used).toBe('scripted-7b');
    expect(res.body.predictions[0]).toEqual({
      query: 'aed locations nearby',
      confidence: 0.95,
      reason: 'scripted-7b: Next step after learning CPR.',
    });
    const features = await withModel.get('/api/v1/enhanced/features');
    expect(features.body.features.llm.available).toBe(true);
    expect(features.body.features.llm.detail).toContain('scripted-7b');
  });
});

describe('over MCP', () => {
  it('serves the neural tools over stdio, with progress notifications on search', async () => {
    const { client, close } = await spawnMcpStdio(web, neuralConfig());
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toEqual(
        expect.arrayContaining([
          'neural_search',
          'neural_similar',
          'neural_highlights',
          'neural_predictive',
          'neural_categories',
        ]),
      );
      const recorder = recordProgress(client);
      const result = await client
        .callTool({ name: 'neural_search', arguments: { query: PARAPHRASE, use_autoprompt: false } }, undefined, {
          onprogress: recorder.onprogress,
        })
        .finally(recorder.stop);
      const progress = recorder.seen.map((p) => p.message ?? String(p.progress));
      expect(result.isError).toBeFalsy();
      expect((result.structuredContent as any).results[0].url).toBe(`${web.url}${CPR!.path}`);
      expect(progress.length).toBeGreaterThanOrEqual(3);
      expect(progress.join(' | ')).toMatch(/ranking by meaning/);
    } finally {
      await close();
    }
  }, 60_000);
});
