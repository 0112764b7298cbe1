/**
 * The cross-encoder reranker (models.reranker) in every area it is promised,
 * with a tiny ONNX model built here (services/models/fixtures/tiny-models.ts):
 * cited answers, RAG summaries, agent research, agent extract with a query and
 * RAG research each change the way the model says and name it in model_used.
 * A second instance whose reranker is broken answers the same requests with
 * the offline order and claims no reranker. Over HTTP, and agent search once
 * over MCP (Streamable HTTP).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeTinyModel } from '../../services/models/fixtures/tiny-models.js';
import { renderResearchPage } from '../sandbox/research-pages.js';
import { startQuarry, TEST_KEY, type RunningQuarry } from './harness.js';
import { startResearchWeb, type ResearchWeb } from './research-web.js';

/** Loves Lord Kelvin (the history page), likes refrigerants (the problems page's last sentence). */
const RERANKER = { labels: ['LABEL_0'], words: { kelvin: [9], refrigerants: [4] }, fallback: [0] };
const HISTORY = '/heat-pumps/history-of-the-heat-pump';
const PROBLEMS = '/heat-pumps/heat-pump-problems';
/** A page long enough for several passages: the query's words lead, Kelvin comes last. */
const GUIDE = {
  path: '/guides/heat-pumps-in-winter',
  title: 'Heat pumps in winter: a long guide',
  paragraphs: [
    'In cold weather an air-source heat pump loses efficiency: as the outdoor temperature falls the heat ' +
      'pump has to work harder, and in very cold weather its running costs rise while the heat it delivers ' +
      'falls. Owners in cold places often add a backup heater for the coldest weeks of the year.',
    'Installation takes two or three days for a typical house. The outdoor unit sits on a concrete pad or ' +
      'wall brackets, the installer runs refrigerant pipes through the wall, connects the indoor units or the ' +
      'hot water cylinder, fills and tests the system, and shows the owners the controls.',
    'Noise is a common worry. A modern outdoor unit is about as loud as a quiet conversation at a few ' +
      'metres, and local rules often set how close to a neighbour it may stand. Placing it away from bedroom ' +
      'windows and on rubber feet keeps the sound down.',
    'The idea is old: Lord Kelvin wrote in 1852 that an engine run in reverse could warm buildings with heat ' +
      'drawn from outside, and engineers built the first working systems within a few years of his paper, long ' +
      'before homes had electricity.',
  ],
};

let site: ResearchWeb;
let dir: string;
let reranked: RunningQuarry;
let broken: RunningQuarry;

function config(reranker: string) {
  return {
    ...(site.config() as Record<string, unknown>),
    models: { allowRemote: false, reranker: { model: reranker } },
  };
}

beforeAll(async () => {
  site = await startResearchWeb();
  site.web.addPage(GUIDE.path, renderResearchPage(GUIDE));
  dir = mkdtempSync(join(tmpdir(), 'quarry-reranker-'));
  writeTinyModel(join(dir, 'tiny-reranker'), 'pair', RERANKER);
  // The same model with an ONNX graph that does not parse.
  writeTinyModel(join(dir, 'broken-reranker'), 'pair', RERANKER);
  writeFileSync(join(dir, 'broken-reranker', 'onnx', 'model.onnx'), 'not an onnx file');
  [reranked, broken] = await Promise.all([
    startQuarry(site.web, config(join(dir, 'tiny-reranker')) as never),
    startQuarry(site.web, config(join(dir, 'broken-reranker')) as never),
  ]);
}, 60_000);

afterAll(async () => {
  await reranked?.close();
  await broken?.close();
  await site?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The same request to both instances. */
async function both(path: string, body: unknown) {
  const [withModel, offline] = await Promise.all([reranked.post(path, body), broken.post(path, body)]);
  expect(withModel.status, JSON.stringify(withModel.body)).toBe(200);
  expect(offline.status, JSON.stringify(offline.body)).toBe(200);
  return { withModel: withModel.body, offline: offline.body };
}

describe('answers', () => {
  it("agent search's cited answer quotes first the sentence the cross-encoder prefers, and names it", async () => {
    const { withModel, offline } = await both('/api/v1/agent/search', {
      query: 'When was the first heat pump built?',
      include_answer: true,
      max_results: 5,
    });
    // The history page answers either way; the model moves Kelvin's sentence ahead of von Rittinger's.
    expect(offline.answer).toContain('Between 1855 and 1857');
    expect(offline.answer).not.toMatch(/^Lord Kelvin/);
    expect(withModel.answer).toMatch(/^Lord Kelvin described .*\[\d\]/);
    expect(withModel.model_used).toBe('extractive, reranked by tiny-reranker');
    expect(offline.model_used).toBe('extractive');
  });

  it("RAG search's summaries take the sentences the cross-encoder prefers", async () => {
    const { withModel, offline } = await both('/api/v1/rag/search', {
      query: 'heat pump price upfront cost',
      max_sources: 5,
    });
    const summary = (body: any) => body.sources.find((s: any) => s.url === site.url(PROBLEMS))?.summary as string;
    // Two sentences of the problems page: the model swaps the cold-weather one for the refrigerants one it likes.
    expect(offline.model_used).toBe('extractive');
    expect(summary(offline)).toContain('The upfront cost');
    expect(summary(offline)).not.toContain('Some refrigerants');
    expect(withModel.model_used).toBe('extractive, reranked by tiny-reranker');
    expect(summary(withModel)).toContain('The upfront cost');
    expect(summary(withModel)).toContain('Some refrigerants');
  });
});

describe('research and extraction', () => {
  it('agent research ranks its sources with the cross-encoder and names it', async () => {
    const { withModel, offline } = await both('/api/v1/agent/research', {
      query: 'heat pump problems cold weather',
      depth: 'quick',
      max_sources: 5,
    });
    expect(offline.sources[0].url).toBe(site.url(PROBLEMS));
    expect(withModel.sources[0].url).toBe(site.url(HISTORY));
    expect(withModel.model_used).toBe('extractive, reranked by tiny-reranker');
    expect(offline.model_used).toBe('extractive');
  });

  it('agent extract with a query leads with the passage the cross-encoder prefers', async () => {
    const { withModel, offline } = await both('/api/v1/agent/extract', {
      urls: [site.url(GUIDE.path)],
      query: 'heat pump cold weather',
      chunks_per_source: 1,
    });
    expect(offline.results[0].raw_content).toMatch(/^In cold weather/);
    expect(offline.results[0].raw_content).not.toContain('Kelvin');
    expect(withModel.results[0].raw_content).toContain('Lord Kelvin wrote in 1852');
    expect(withModel.results[0].raw_content).not.toContain('In cold weather');
  });

  it('RAG research scores its corpus with the cross-encoder and names it', async () => {
    const { withModel, offline } = await both('/api/v1/rag/research', {
      topic: 'heat pump problems cold weather',
      depth: 'quick',
      target_sources: 6,
    });
    expect(offline.sources[0].url).toBe(site.url(PROBLEMS));
    expect(withModel.sources[0].url).toBe(site.url(HISTORY));
    expect(withModel.model_used).toBe('templates + extractive, reranked by tiny-reranker');
    expect(offline.model_used).toBe('templates + extractive');
    // A page added later is summarised the same way; read back (a finished corpus resumed), the corpus still names what
    // ordered it.
    const addAndReadBack = async (quarry: RunningQuarry, corpusId: string) => {
      expect(
        (await quarry.post('/api/v1/rag/corpora/add', { corpus_id: corpusId, urls: [site.url(GUIDE.path)] })).status,
      ).toBe(200);
      const again = await quarry.post('/api/v1/rag/corpora/resume', { corpus_id: corpusId });
      expect(again.status).toBe(200);
      return {
        modelUsed: again.body.model_used,
        guide: again.body.sources.find((s: any) => s.url === site.url(GUIDE.path)).summary as string,
      };
    };
    const [later, offlineLater] = await Promise.all([
      addAndReadBack(reranked, withModel.corpus_id),
      addAndReadBack(broken, offline.corpus_id),
    ]);
    expect(later.modelUsed).toBe('templates + extractive, reranked by tiny-reranker');
    expect(later.guide).toContain('Lord Kelvin');
    expect(offlineLater.modelUsed).toBe('templates + extractive');
    expect(offlineLater.guide).not.toContain('Lord Kelvin');
  });
});

describe('over MCP', () => {
  it('agent_search names the reranker in its structured answer', async () => {
    const client = new Client(
      { name: 'quarry-test', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${reranked.url}/mcp`), {
        requestInit: { headers: { 'x-api-key': TEST_KEY } },
      }),
    );
    try {
      const result = await client.callTool({
        name: 'agent_search',
        arguments: {
          query: 'heat pump problems cold weather',
          include_answer: false,
          max_results: 3,
          search_depth: 'advanced',
        },
      });
      const structured = result.structuredContent as any;
      expect(structured.model_used).toBe('none, reranked by tiny-reranker');
      expect(structured.results[0].url).toBe(site.url(HISTORY));
    } finally {
      await client.close();
    }
  });
});

describe('where the reranker runs, and when it cannot', () => {
  it('runs in a model worker process, not on the event loop', () => {
    const pid = reranked.app.services.models.workerPid('reranker');
    expect(pid).toBeTypeOf('number');
    expect(pid).not.toBe(process.pid);
  });

  it('a broken one: the offline order (above), and after its first use the reason in /health and the features answer', async () => {
    // Health reports a configured model and never loads it (a download may take minutes): use it once first.
    const extract = await broken.post('/api/v1/agent/extract', {
      urls: [site.url(GUIDE.path)],
      query: 'heat pump cold weather',
      chunks_per_source: 1,
    });
    expect(extract.body.results[0].raw_content).toMatch(/^In cold weather/);
    expect(broken.app.services.models.workerPid('reranker')).toBeNull();
    const health = await broken.get('/health');
    expect(health.body.status).toBe('degraded');
    expect(health.body.services.reranker_model).toMatchObject({ status: 'unhealthy' });
    expect(JSON.stringify(health.body.services.reranker_model)).toMatch(
      /no reranking \(offline passage scores\).*configured reranker model .*broken-reranker not used.*(onnx|protobuf|parse)/i,
    );
    const features = JSON.stringify((await broken.get('/api/v1/enhanced/features')).body.features);
    expect(features).toMatch(
      /reranker_model.*no reranking \(offline passage scores\); configured reranker model …\/broken-reranker not used/,
    );
    expect(JSON.stringify(health.body)).not.toContain(dir);
    expect(features).not.toContain(dir);
  });
});
