/**
 * The RAG area end to end against the local web (research-web.ts): search
 * with token-budgeted context, corpus research, a restart, semantic search
 * over the corpus, corpus management, image search across engines, and bad
 * input.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countTokens } from '../../services/chunking/tokenizer.js';
import { startResearchWeb, type ResearchWeb } from './research-web.js';
import { startQuarry, type RunningQuarry } from './harness.js';
import { until } from '../sandbox/until.js';

let site: ResearchWeb;
let quarry: RunningQuarry;
let dataDir: string;

const SEARCH = '/api/v1/rag/search';
const RESEARCH = '/api/v1/rag/research';
const SEMANTIC = '/api/v1/rag/semantic-search';

const IMAGES_A = [
  {
    link: 'https://img.example.org/a/heat-pump-1.jpg',
    name: 'Heat pump outdoor unit',
    thumb: 'https://img.example.org/a/t1.jpg',
  },
  {
    link: 'https://img.example.org/shared/heat-pump-diagram.png',
    name: 'Heat pump diagram',
    thumb: 'https://img.example.org/a/t2.jpg',
  },
];
const IMAGES_B = [
  {
    link: 'https://img.example.org/shared/heat-pump-diagram.png',
    name: 'Diagram of a heat pump',
    thumb: 'https://img.example.org/b/t2.jpg',
  },
  { link: 'https://img.example.org/b/ground-loop.jpg', name: 'Ground loop', thumb: 'https://img.example.org/b/t3.jpg' },
];

function config() {
  const imageEngine = (id: string, path: string) => ({
    type: 'json',
    id,
    name: id,
    categories: ['images'],
    urlTemplate: `${site.web.url}${path}?q={query}`,
    results: 'items',
    fields: { url: 'link', title: 'name', thumbnail: 'thumb' },
  });
  const base = site.config() as Record<string, any>;
  return {
    ...base,
    customEngines: [
      ...base.customEngines,
      imageEngine('local_a_images', '/images-a.json'),
      imageEngine('local_b_images', '/images-b.json'),
    ],
  };
}

beforeAll(async () => {
  site = await startResearchWeb();
  site.web.addPage('/images-a.json', JSON.stringify({ items: IMAGES_A }), { contentType: 'application/json' });
  site.web.addPage('/images-b.json', JSON.stringify({ items: IMAGES_B }), { contentType: 'application/json' });
  dataDir = mkdtempSync(join(tmpdir(), 'quarry-rag-'));
  quarry = await startQuarry(site.web, config() as never, { dataDir });
}, 60_000);

afterAll(async () => {
  await quarry?.close();
  await site?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('rag search', () => {
  it('keeps context within max_context_tokens at every budget, each chunk tagged with a returned source', async () => {
    for (const budget of [50, 120, 400, 3000]) {
      const res = await quarry.post(SEARCH, {
        query: 'how does a heat pump work refrigerant compressor',
        max_sources: 4,
        max_context_tokens: budget,
      });
      expect(res.status).toBe(200);
      const { context, sources, context_tokens } = res.body;
      expect(countTokens(context)).toBe(context_tokens);
      expect(context_tokens).toBeLessThanOrEqual(budget);
      expect(context.length).toBeGreaterThan(0);
      const tags = [...context.matchAll(/^\[(\d+)\] /gm)].map((m: RegExpMatchArray) => Number(m[1]));
      expect(tags.length).toBe(context.split('\n\n').length);
      for (const n of tags) expect(n).toBeGreaterThanOrEqual(1), expect(n).toBeLessThanOrEqual(sources.length);
      // Every tagged chunk is text of the page it names.
      for (const block of context.split('\n\n')) {
        const [, n, text] = /^\[(\d+)\] ([\s\S]*)$/.exec(block)!;
        expect(sources[Number(n) - 1].content.replace(/\s+/g, ' ')).toContain(text!.slice(0, 60));
      }
      // Reading order: by source, then position.
      expect(tags).toEqual([...tags].sort((a, b) => a - b));
    }
  });

  it('returns RAG sources with summaries, scores and the default engine', async () => {
    const res = await quarry.post(SEARCH, { query: 'heat pump problems cold weather' });
    expect(res.status).toBe(200);
    expect(res.body.source_count).toBe(res.body.sources.length);
    expect(res.body.sources.length).toBeLessThanOrEqual(5);
    const top = res.body.sources[0];
    expect(top.url).toBe(site.url('/heat-pumps/heat-pump-problems'));
    expect(top.engine).toBe('local_web');
    expect(top.summary).toMatch(/cold weather|outdoor temperature/);
    expect(top.content).toContain(top.summary.split('. ')[0]!.slice(0, 40));
    expect(Date.parse(top.scraped_at)).not.toBeNaN();
    expect(top.word_count).toBeGreaterThan(20);
    const scores = res.body.sources.map((s: any) => s.relevance_score);
    expect(scores).toEqual([...scores].sort((a: number, b: number) => b - a));
    expect(res.body.model_used).toBe('extractive');
    const without = await quarry.post(SEARCH, {
      query: 'heat pump problems cold weather',
      include_context: false,
      scrape_content: false,
      max_sources: 2,
    });
    expect(without.body.context).toBe('');
    expect(without.body.sources[0].content).toBe(
      'The efficiency of an air-source heat pump drops as the outdoor temperature falls, so very cold ' +
        'weather raises running costs.',
    );
  });

  it('rejects an unknown engine and bad budgets, naming the field', async () => {
    for (const [body, field] of [
      [{ query: 'x', engines: ['nosuch'] }, /nosuch/],
      [{ query: 'x', max_sources: 0 }, /max_sources/],
      [{ query: 'x', max_sources: 21 }, /max_sources/],
      [{ query: 'x', max_context_tokens: 10 }, /max_context_tokens/],
      [{ query: '' }, /query/],
    ] as const) {
      const res = await quarry.post(SEARCH, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message).toMatch(field);
    }
  });
});

describe('rag research and corpora', () => {
  let corpusId: string;
  let built: any;

  it('builds a corpus: queries per category, pages read and stored with chunks and embeddings', async () => {
    const res = await quarry.post(RESEARCH, {
      topic: 'heat pump',
      depth: 'quick',
      categories: ['overview', 'history', 'technical'],
      generate_embeddings: true,
    });
    expect(res.status).toBe(200);
    built = res.body;
    corpusId = built.corpus_id;
    expect(corpusId).toMatch(/^corpus_[a-f0-9]{16}$/);
    expect(built.status).toBe('complete');
    expect(built.queries_executed).toEqual([
      'heat pump overview',
      'heat pump history',
      'heat pump technical details how it works',
    ]);
    expect(built.sources.length).toBeGreaterThan(3);
    expect(built.counts.chunks).toBeGreaterThanOrEqual(built.sources.length);
    expect(built.total_sources_found).toBeGreaterThanOrEqual(built.sources.length);
    for (const source of built.sources) {
      expect(source.id).toMatch(/^src_/);
      expect(source.embedding).toHaveLength(100);
      expect(source.summary.length).toBeGreaterThan(10);
    }
    const urls = built.sources.map((s: any) => s.url);
    expect(urls).not.toContain(site.url('/heat-pumps/archived-buyers-guide'));
    expect(new Set(urls).size).toBe(urls.length);
    expect(built.embedding_model).toBe('quarry/glove-static-100d');
  }, 90_000);

  it('survives a restart: semantic search then finds chunks with scores and offsets into their source', async () => {
    await quarry.close();
    quarry = await startQuarry(site.web, config() as never, { dataDir });
    const res = await quarry.post(SEMANTIC, {
      corpus_id: corpusId,
      query: 'who built the first heat pump',
      min_relevance: 0,
    });
    expect(res.status).toBe(200);
    expect(res.body.corpus_status).toBe('complete');
    expect(res.body.vector_search).toBe(true);
    const top = res.body.results[0];
    expect(top.url).toBe(site.url('/heat-pumps/history-of-the-heat-pump'));
    expect(top.text).toContain('Rittinger');
    expect(top.id).toMatch(/^src_/);
    const source = built.sources.find((s: any) => s.id === top.id);
    expect([...source.content].slice(top.start, top.end).join('')).toBe(top.text);
    expect(top.summary).toBe(source.summary);
    for (const hit of res.body.results)
      expect(hit.score).toBeGreaterThanOrEqual(0), expect(hit.score).toBeLessThanOrEqual(1);
    const scores = res.body.results.map((r: any) => r.score);
    expect(scores).toEqual([...scores].sort((a: number, b: number) => b - a));
    // The default min_relevance 0.5 keeps the answer and drops what does not match.
    const strict = await quarry.post(SEMANTIC, { corpus_id: corpusId, query: 'who built the first heat pump' });
    expect(strict.body.results[0].text).toContain('Rittinger');
    for (const hit of strict.body.results) expect(hit.score).toBeGreaterThanOrEqual(0.5);
    const unrelated = await quarry.post(SEMANTIC, { corpus_id: corpusId, query: 'chocolate cake recipe with cream' });
    expect(unrelated.body.results).toEqual([]);
  }, 90_000);

  it('lists, gets, adds to and deletes corpora', async () => {
    const list = await quarry.get('/api/v1/rag/corpora');
    expect(list.body.corpora.map((c: any) => c.corpus_id)).toContain(corpusId);
    const one = await quarry.get(`/api/v1/rag/corpora/${corpusId}`);
    expect(one.body).toMatchObject({ corpus_id: corpusId, topic: 'heat pump', status: 'complete' });
    expect(one.body.sources).toHaveLength(built.sources.length);
    const added = await quarry.post('/api/v1/rag/corpora/add', {
      corpus_id: corpusId,
      urls: [site.url('/heat-pumps/heat-pump-problems'), site.url('/heat-pumps/archived-buyers-guide')],
      texts: [
        { title: 'Field note', text: 'The geothermal loop under the north meadow was flushed with glycol in March.' },
      ],
    });
    expect(added.status).toBe(200);
    expect(added.body.added.map((a: any) => a.title)).toEqual(['Heat pump problems and limitations', 'Field note']);
    expect(added.body.failed).toEqual([{ url: site.url('/heat-pumps/archived-buyers-guide'), error: 'HTTP 404' }]);
    const found = await quarry.post(SEMANTIC, {
      corpus_id: corpusId,
      query: 'geothermal loop flushed with glycol',
      min_relevance: 0,
    });
    expect(found.body.results[0].title).toBe('Field note');

    const deleted = await quarry.post(`/api/v1/rag/corpora/${corpusId}`, {}, {}).catch(() => null);
    expect(deleted?.status).not.toBe(200); // DELETE only
    const gone = await fetch(`${quarry.url}/api/v1/rag/corpora/${corpusId}`, {
      method: 'DELETE',
      headers: { 'x-api-key': 'test-key-0123456789' },
    });
    const body = (await gone.json()) as any;
    expect(gone.status).toBe(200);
    expect(body).toMatchObject({ corpus_id: corpusId, deleted: true });
    expect(body.chunks_deleted).toBeGreaterThan(0);
    expect((await quarry.get(`/api/v1/rag/corpora/${corpusId}`)).status).toBe(404);
    expect((await quarry.post(SEMANTIC, { corpus_id: corpusId, query: 'x' })).status).toBe(404);
  }, 90_000);

  it('as a job: answers with the corpus id and a status URL that later holds the result', async () => {
    const res = await quarry.post(RESEARCH, { topic: 'heat pump', depth: 'quick', async: true });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      status: 'processing',
      job_id: expect.stringMatching(/^job_/),
      corpus_id: expect.stringMatching(/^corpus_/),
    });
    const status = await until(
      'the corpus build job to finish',
      async () => {
        const body = (await quarry.get(`/api/v1/rag/research/jobs/${res.body.job_id}`)).body;
        return (body.status === 'completed' || body.status === 'failed') && body;
      },
      60_000,
      250,
    );
    expect(status.status).toBe('completed');
    expect(status.result.corpus_id).toBe(res.body.corpus_id);
    expect(status.result.status).toBe('complete');
  }, 90_000);

  it('rejects bad input with a 4xx naming the field', async () => {
    const cases: Array<[string, unknown, number, RegExp]> = [
      [SEMANTIC, { corpus_id: 'corpus_00000000000000000000', query: 'x' }, 404, /corpus_id/],
      [SEMANTIC, { corpus_id: 'not-a-corpus', query: 'x' }, 400, /corpus_id/],
      [SEMANTIC, { corpus_id: 'corpus_00000000000000000000', query: 'x', limit: 0 }, 400, /limit/],
      [SEMANTIC, { corpus_id: 'corpus_00000000000000000000', query: 'x', min_relevance: 2 }, 400, /min_relevance/],
      [RESEARCH, { topic: 'x', categories: ['gossip'] }, 400, /categories/],
      [RESEARCH, { topic: 'x', engines: ['nosuch'] }, 400, /nosuch/],
      [RESEARCH, { topic: 'x', depth: 'comprehensive' }, 400, /depth/],
      [RESEARCH, { topic: 'x', num_queries: 31 }, 400, /num_queries/],
      [RESEARCH, { topic: 'x', target_sources: 0 }, 400, /target_sources/],
      ['/api/v1/rag/images', { query: 'x', engines: ['local_web'] }, 400, /not an image engine/],
      ['/api/v1/rag/images', { query: 'x', safe_search: 'none' }, 400, /safe_search/],
      ['/api/v1/rag/corpora/add', { corpus_id: 'corpus_00000000000000000000' }, 400, /urls/],
    ];
    for (const [path, body, status, message] of cases) {
      const res = await quarry.post(path, body);
      expect(res.status, `${path} ${JSON.stringify(body)}`).toBe(status);
      expect(res.body.error.message).toMatch(message);
    }
  });
});

describe('rag images', () => {
  it('merges and deduplicates images across engines, naming every engine of a shared image', async () => {
    const res = await quarry.post('/api/v1/rag/images', {
      query: 'heat pump',
      engines: ['local_a_images', 'local_b_images'],
      max_results: 10,
    });
    expect(res.status).toBe(200);
    const urls = res.body.images.map((i: any) => i.url);
    expect(urls).toHaveLength(3);
    expect(new Set(urls).size).toBe(3);
    const shared = res.body.images.find((i: any) => i.url === 'https://img.example.org/shared/heat-pump-diagram.png');
    expect(shared.engines).toEqual(['local_a_images', 'local_b_images']);
    // Found by both engines: ranked first.
    expect(urls[0]).toBe(shared.url);
    expect(res.body.total_results).toBe(3);
    for (const image of res.body.images) {
      expect(typeof image.thumbnail_url).toBe('string');
      expect(image.width === null || Number.isInteger(image.width)).toBe(true);
    }
  });

  it('uses one image engine by default and passes safe_search to it', async () => {
    const res = await quarry.post('/api/v1/rag/images', { query: 'tiger', safe_search: 'strict', max_results: 3 });
    expect(res.status).toBe(200);
    expect(res.body.images.length).toBe(3);
    expect(res.body.images.every((i: any) => i.engine === 'bing_images')).toBe(true);
    expect(res.body.images[0].width).toBeGreaterThan(0);
    expect(site.web.engineRequests('bing_images').at(-1)!.url).toMatch(/adlt=strict/);
  });
});
