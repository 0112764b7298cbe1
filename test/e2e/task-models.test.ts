/**
 * The optional task models end to end over HTTP, with tiny models of the real
 * shapes written in a temp folder (services/models/fixtures/tiny-models.ts):
 * the token classifier tags knowledge extraction, the NLI model judges
 * verify's stance, the cross-encoder reorders agent and RAG passages — each
 * visibly changing the answer and named in model_used. A second instance with
 * broken models answers the same requests with the offline defaults and says
 * why in /health and the features answer.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NER_SPEC, writeTinyModel } from '../../services/models/fixtures/tiny-models.js';
import { CLAIM_GROUPS, claimEngines, serveClaimWeb } from '../sandbox/claim-pages.js';
import { startQuarry, type RunningQuarry } from './harness.js';
import { startResearchWeb, type ResearchWeb } from './research-web.js';

/** Reads any pair holding "completed" as a contradiction: the Eiffel Tower claim turns false. */
const NLI = {
  labels: ['entailment', 'neutral', 'contradiction'],
  words: { completed: [0, 0, 6] },
  fallback: [0, 0.2, 0],
};
/** Loves Lord Kelvin: the history page's passage goes to the top. */
const RERANKER = { labels: ['LABEL_0'], words: { kelvin: [9] }, fallback: [0] };
const TEXT = 'Zorblax hired Quenby Marsh last spring. Later, Quenby Marsh left Zorblax for Microsoft in London.';
const HISTORY = '/heat-pumps/history-of-the-heat-pump';

let site: ResearchWeb;
let dir: string;
let withModels: RunningQuarry;
let broken: RunningQuarry;

function config(models: Record<string, unknown>) {
  const base = site.config() as Record<string, any>;
  return {
    ...base,
    customEngines: [...base.customEngines, ...claimEngines(site.web.url, CLAIM_GROUPS)],
    models: { allowRemote: false, ...models },
  };
}

beforeAll(async () => {
  site = await startResearchWeb();
  serveClaimWeb(site.web);
  dir = mkdtempSync(join(tmpdir(), 'quarry-task-models-'));
  const folder = (name: string) => join(dir, name);
  writeTinyModel(folder('tiny-ner'), 'token', NER_SPEC);
  writeTinyModel(folder('tiny-nli'), 'pair', NLI);
  writeTinyModel(folder('tiny-reranker'), 'pair', RERANKER);
  mkdirSync(join(folder('broken'), 'onnx'), { recursive: true });
  for (const file of ['config.json', 'tokenizer.json'])
    writeFileSync(join(folder('broken'), file), '{"model_type": "bert"}');
  writeFileSync(join(folder('broken'), 'onnx', 'model.onnx'), 'not an onnx file');
  withModels = await startQuarry(
    site.web,
    config({
      entities: { model: folder('tiny-ner') },
      stance: { model: folder('tiny-nli') },
      reranker: { model: folder('tiny-reranker') },
    }) as never,
  );
  broken = await startQuarry(
    site.web,
    config({
      entities: { model: folder('broken') },
      stance: { model: folder('missing') },
      reranker: { model: 'quarry-test/not-cached' },
    }) as never,
  );
}, 60_000);

afterAll(async () => {
  await withModels?.close();
  await broken?.close();
  await site?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('configured task models', () => {
  it('knowledge extraction takes its entities from the token classifier and names it', async () => {
    const res = await withModels.post('/api/v1/knowledge/extract', { text: TEXT, store: false });
    expect(res.status).toBe(200);
    expect(res.body.model_used).toBe('tiny-ner');
    // Only the two names the tiny model knows: the offline tagger would also find Microsoft and London.
    expect(res.body.entities.map((e: any) => [e.type, e.name]).sort()).toEqual([
      ['organization', 'Zorblax'],
      ['person', 'Quenby Marsh'],
    ]);
  });

  it("verify's stance comes from the NLI model, which turns a true claim false", async () => {
    const res = await withModels.post('/api/v1/verify/claim', {
      claim: 'The Eiffel Tower was completed in 1889.',
      engines: ['find_eiffel'],
    });
    expect(res.status).toBe(200);
    expect(res.body.model_used).toBe('tiny-nli');
    expect(res.body.verdict).toBe('false');
    expect(res.body.contradicting_evidence.length).toBeGreaterThan(0);
  });

  it('RAG, agent and neural results are reordered by the cross-encoder, and model_used says so', async () => {
    const rag = await withModels.post('/api/v1/rag/search', {
      query: 'heat pump problems cold weather',
      max_sources: 3,
    });
    expect(rag.status).toBe(200);
    expect(rag.body.sources[0].url).toBe(site.url(HISTORY));
    expect(rag.body.model_used).toBe('extractive, reranked by tiny-reranker');
    const agent = await withModels.post('/api/v1/agent/search', {
      query: 'heat pump problems cold weather',
      search_depth: 'advanced',
      max_results: 3,
    });
    expect(agent.status).toBe(200);
    expect(agent.body.results[0].url).toBe(site.url(HISTORY));
    expect(agent.body.model_used).toBe('none, reranked by tiny-reranker');
    const neural = await withModels.post('/api/v1/neural/search', {
      query: 'heat pump problems cold weather',
      num_results: 3,
      use_autoprompt: false,
    });
    expect(neural.status).toBe(200);
    expect(neural.body.results[0].url).toBe(site.url(HISTORY));
    expect(neural.body.model_used).toBe('none, reranked by tiny-reranker');
  });

  it('the features answer names the models in use', async () => {
    const res = await withModels.get('/api/v1/enhanced/features');
    const text = JSON.stringify(res.body.features);
    for (const name of ['tiny-ner (local-path)', 'tiny-nli (local-path)', 'tiny-reranker (local-path)'])
      expect(text).toContain(name);
    expect(text).not.toContain(dir);
  });
});

describe('broken or missing models', () => {
  it('answer with the offline defaults, and say why in /health and the features answer', async () => {
    const knowledge = await broken.post('/api/v1/knowledge/extract', { text: TEXT, store: false });
    expect(knowledge.status).toBe(200);
    expect(knowledge.body.model_used).toBe('offline-tagger');
    const verify = await broken.post('/api/v1/verify/claim', {
      claim: 'The Eiffel Tower was completed in 1889.',
      engines: ['find_eiffel'],
    });
    expect(verify.body).toMatchObject({ verdict: 'true', model_used: 'rules' });
    const rag = await broken.post('/api/v1/rag/search', { query: 'heat pump problems cold weather', max_sources: 3 });
    expect(rag.body.model_used).toBe('extractive');
    expect(rag.body.sources[0].url).toBe(site.url('/heat-pumps/heat-pump-problems'));

    const health = await broken.get('/health');
    const services = health.body.services;
    expect(health.body.status).toBe('degraded');
    expect(services.entities_model).toMatchObject({ status: 'unhealthy' });
    expect(JSON.stringify(services.entities_model)).toMatch(
      /offline tagger.*configured entities model .*broken not used/,
    );
    expect(JSON.stringify(services.stance_model)).toMatch(/stance rules.*missing holds no config\.json/);
    expect(JSON.stringify(services.reranker_model)).toMatch(/quarry-test\/not-cached is not in the cache/);
    const features = JSON.stringify((await broken.get('/api/v1/enhanced/features')).body.features);
    expect(features).toContain('configured stance model');
    expect(features).not.toContain(dir);
  });
});
