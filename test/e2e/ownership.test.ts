/**
 * Ownership between API keys over HTTP (docs/http-api.md "Keys and ownership"): with
 * two keys, every read, change and delete of the other key's monitors,
 * corpora, graph entities and jobs of every async area answers 404 (the code
 * of a missing resource) and lists show only one's own; keys of one group
 * share (search history included); an admin key sees everything, including what was made before
 * ownership existed; the caps per key answer QUOTA_EXCEEDED naming the limit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startResearchWeb, type ResearchWeb } from './research-web.js';
import { startQuarry, type RunningQuarry } from './harness.js';
import { until } from '../sandbox/until.js';

const KEY_A = 'key-alpha-0123456789';
const KEY_B = 'key-bravo-0123456789';
const ADMIN = 'key-admin-0123456789';
const TEAM_1 = 'key-team-one-0123456';
const TEAM_2 = 'key-team-two-0123456';

let site: ResearchWeb;
let quarry: RunningQuarry;

type Answer = { status: number; body: any };

/** A request with the given key (the harness's helpers send its own test key). */
async function as(key: string, method: string, path: string, body?: unknown): Promise<Answer> {
  const response = await fetch(quarry.url + path, {
    method,
    headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

function monitorBody(topic: string, interval: number) {
  return { topic, keywords: ['heat'], check_interval_minutes: interval };
}

function expectNotFound(answer: Answer, what: string): void {
  expect(answer.status, `${what}: ${JSON.stringify(answer.body)}`).toBe(404);
  expect(answer.body.error.code, what).toBe('NOT_FOUND');
}

const NEWS =
  'Microsoft Corp. said on Tuesday that its chief executive, Satya Nadella, will visit London next month. ' +
  'Nadella told reporters that Microsoft (NASDAQ: MSFT) partnered with OpenAI last year.';

beforeAll(async () => {
  site = await startResearchWeb();
  quarry = await startQuarry(site.web, site.config(), {
    apiKeys: [KEY_A, KEY_B, `team:${TEAM_1}`, `team:${TEAM_2}`],
    adminApiKeys: [ADMIN],
  });
}, 60_000);

afterAll(async () => {
  await quarry?.close();
  await site?.close();
});

describe('monitors', () => {
  it("another key gets 404 on every monitor route and does not list A's monitor; an admin sees it", async () => {
    const created = await as(KEY_A, 'POST', '/api/v1/monitor/topics', monitorBody('heat pump', 60));
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.id;
    const base = `/api/v1/monitor/topics/${id}`;

    for (const [method, path] of [
      ['GET', base],
      ['GET', `${base}/results`],
      ['POST', `${base}/pause`],
      ['POST', `${base}/resume`],
      ['POST', `${base}/check`],
      ['DELETE', base],
    ] as const) {
      expectNotFound(await as(KEY_B, method, path), `B ${method} ${path}`);
    }
    expect((await as(KEY_B, 'GET', '/api/v1/monitor/topics')).body).toEqual([]);
    // A missing monitor answers exactly alike: nothing tells B the id exists.
    const missing = await as(KEY_B, 'GET', '/api/v1/monitor/topics/mon_000000000000000000000000');
    expect(missing.body.error.code).toBe('NOT_FOUND');

    const mine = await as(KEY_A, 'GET', '/api/v1/monitor/topics');
    expect(mine.body.map((m: any) => m.id)).toEqual([id]);
    expect((await as(KEY_A, 'POST', `${base}/pause`)).status).toBe(200);
    expect((await as(KEY_A, 'GET', base)).body.status).toBe('paused');

    expect((await as(ADMIN, 'GET', '/api/v1/monitor/topics')).body.map((m: any) => m.id)).toContain(id);
    expect((await as(ADMIN, 'GET', base)).status).toBe(200);
    expect((await as(KEY_A, 'DELETE', base)).status).toBe(200);
  });

  it('keys of one group share their monitors', async () => {
    const created = await as(TEAM_1, 'POST', '/api/v1/monitor/topics', monitorBody('ground source', 120));
    const id = created.body.id;
    expect((await as(TEAM_2, 'GET', `/api/v1/monitor/topics/${id}`)).status).toBe(200);
    expect((await as(TEAM_2, 'GET', '/api/v1/monitor/topics')).body.map((m: any) => m.id)).toEqual([id]);
    expectNotFound(await as(KEY_A, 'GET', `/api/v1/monitor/topics/${id}`), 'A reads the team monitor');
    expect((await as(TEAM_2, 'DELETE', `/api/v1/monitor/topics/${id}`)).status).toBe(200);
  });

  it('a monitor made before ownership existed is visible to admins only', async () => {
    const area = quarry.app.services.stores.records;
    const created = await as(KEY_A, 'POST', '/api/v1/monitor/topics', monitorBody('legacy', 60));
    const id = created.body.id;
    // As a record written by an earlier version: no owner.
    const { owner_id: _owner, ...legacy } = (await area.get(`monitor:${id}`)) as Record<string, unknown>;
    await area.set(`monitor:${id}`, legacy);
    expectNotFound(await as(KEY_A, 'GET', `/api/v1/monitor/topics/${id}`), 'A reads an unowned monitor');
    expect((await as(KEY_A, 'GET', '/api/v1/monitor/topics')).body.map((m: any) => m.id)).not.toContain(id);
    expect((await as(ADMIN, 'GET', `/api/v1/monitor/topics/${id}`)).status).toBe(200);
    expect((await as(ADMIN, 'DELETE', `/api/v1/monitor/topics/${id}`)).status).toBe(200);
  });
});

describe('RAG corpora and their build jobs', () => {
  it("another key gets 404 for A's build job and corpus on every route, and does not list it", async () => {
    const accepted = await as(KEY_A, 'POST', '/api/v1/rag/research', {
      topic: 'heat pump',
      depth: 'quick',
      async: true,
    });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(202);
    const { job_id: jobId, corpus_id: corpusId } = accepted.body;
    expectNotFound(await as(KEY_B, 'GET', `/api/v1/rag/research/jobs/${jobId}`), 'B reads the build job');

    const status: Answer = await until(
      'the corpus build job to finish',
      async () => {
        const answer = await as(KEY_A, 'GET', `/api/v1/rag/research/jobs/${jobId}`);
        return (answer.body.status === 'completed' || answer.body.status === 'failed') && answer;
      },
      60_000,
    );
    expect(status.body.status, JSON.stringify(status.body)).toBe('completed');

    expectNotFound(await as(KEY_B, 'GET', `/api/v1/rag/corpora/${corpusId}`), 'B gets the corpus');
    expectNotFound(
      await as(KEY_B, 'POST', '/api/v1/rag/semantic-search', { corpus_id: corpusId, query: 'compressor' }),
      'B searches the corpus',
    );
    expectNotFound(
      await as(KEY_B, 'POST', '/api/v1/rag/corpora/add', {
        corpus_id: corpusId,
        texts: [{ text: 'Planted by B: heat pumps run on moonlight.' }],
      }),
      'B adds',
    );
    expectNotFound(await as(KEY_B, 'POST', '/api/v1/rag/corpora/resume', { corpus_id: corpusId }), 'B resumes');
    expectNotFound(
      await as(KEY_B, 'POST', '/api/v1/rag/corpora/resume', { corpus_id: corpusId, async: true }),
      'B resumes async',
    );
    expectNotFound(await as(KEY_B, 'DELETE', `/api/v1/rag/corpora/${corpusId}`), 'B deletes');
    expect((await as(KEY_B, 'GET', '/api/v1/rag/corpora')).body).toMatchObject({ corpora: [], total: 0 });

    const mine = await as(KEY_A, 'GET', '/api/v1/rag/corpora');
    expect(mine.body.corpora.map((c: any) => c.corpus_id)).toEqual([corpusId]);
    const got = await as(KEY_A, 'GET', `/api/v1/rag/corpora/${corpusId}`);
    expect(got.status).toBe(200);
    expect(JSON.stringify(got.body)).not.toContain('moonlight');
    expect((await as(ADMIN, 'GET', `/api/v1/rag/corpora/${corpusId}`)).status).toBe(200);
    expect((await as(ADMIN, 'GET', `/api/v1/rag/research/jobs/${jobId}`)).status).toBe(200);
    expect((await as(KEY_A, 'DELETE', `/api/v1/rag/corpora/${corpusId}`)).status).toBe(200);
  }, 90_000);
});

describe('jobs of the other async areas', () => {
  it("another key gets 404 for A's search, enhanced search, agent research and verify batch jobs; an admin reads them", async () => {
    const search = await as(KEY_A, 'POST', '/api/v1/search/', { query: 'heat pump', async_mode: true });
    expect(search.status, JSON.stringify(search.body)).toBe(202);
    const enhanced = await as(KEY_A, 'POST', '/api/v1/enhanced/search', { query: 'heat pump', async_mode: true });
    expect(enhanced.status, JSON.stringify(enhanced.body)).toBe(202);
    const research = await as(KEY_A, 'POST', '/api/v1/agent/research', {
      query: 'how does a heat pump work',
      async: true,
    });
    expect(research.status, JSON.stringify(research.body)).toBe(202);
    const batch = await as(KEY_A, 'POST', '/api/v1/verify/batch', {
      claims: ['Heat pumps move heat'],
      wait_seconds: 0,
    });
    expect(batch.status, JSON.stringify(batch.body)).toBe(200);

    const routes = [
      `/api/v1/search/jobs/${search.body.job_id}`,
      `/api/v1/search/status/${search.body.job_id}`,
      `/api/v1/enhanced/search/jobs/${enhanced.body.job_id}`,
      `/api/v1/agent/research/jobs/${research.body.job_id}`,
      `/api/v1/verify/batch/${batch.body.job_id}`,
    ];
    for (const path of routes) {
      expectNotFound(await as(KEY_B, 'GET', path), `B GET ${path}`);
      expect((await as(KEY_A, 'GET', path)).status, `A GET ${path}`).toBe(200);
      expect((await as(ADMIN, 'GET', path)).status, `admin GET ${path}`).toBe(200);
    }
  }, 60_000);
});

describe('search history', () => {
  it("is each key's own: next-search prediction from history never sees another key's queries; a group's keys share one", async () => {
    expect(
      (await as(KEY_A, 'POST', '/api/v1/search/', { query: 'alpha heat pump sizing', async_mode: true })).status,
    ).toBe(202);
    expect(
      (await as(TEAM_1, 'POST', '/api/v1/search/', { query: 'team heat pump noise', async_mode: true })).status,
    ).toBe(202);
    const history = async (key: string) => {
      const answer = await as(key, 'POST', '/api/v1/neural/predictive', {});
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return answer.body.recent_searches_used as string[];
    };
    expect(await history(KEY_A)).toContain('alpha heat pump sizing');
    expect(await history(KEY_A)).not.toContain('team heat pump noise');
    expect(await history(KEY_B)).toEqual([]);
    expect(await history(TEAM_2)).toEqual(['team heat pump noise']);
  }, 60_000);
});

describe('the knowledge graph', () => {
  it("is one graph per key: another key neither finds, reads nor deletes A's entities", async () => {
    const extracted = await as(KEY_A, 'POST', '/api/v1/knowledge/extract', { text: NEWS });
    expect(extracted.status).toBe(200);
    const nadella = extracted.body.entities.find((e: any) => e.name === 'Satya Nadella');
    expect(nadella).toBeDefined();

    expect((await as(KEY_B, 'POST', '/api/v1/knowledge/search', { query: 'Satya Nadella' })).body.entities).toEqual([]);
    expect((await as(KEY_B, 'POST', '/api/v1/knowledge/people', { query: 'Nadella' })).body.people).toEqual([]);
    expect((await as(KEY_B, 'GET', '/api/v1/knowledge/graph')).body.nodes).toEqual([]);
    expectNotFound(await as(KEY_B, 'GET', `/api/v1/knowledge/entities/${nadella.id}`), 'B reads the entity');
    expectNotFound(await as(KEY_B, 'DELETE', `/api/v1/knowledge/entities/${nadella.id}`), 'B deletes the entity');

    // B's own extraction of the same text makes B's entity; A's is untouched (source_count stays 1).
    expect((await as(KEY_B, 'POST', '/api/v1/knowledge/extract', { text: NEWS })).status).toBe(200);
    expect((await as(KEY_A, 'GET', `/api/v1/knowledge/entities/${nadella.id}`)).body.entity.source_count).toBe(1);
    expect((await as(KEY_A, 'POST', '/api/v1/knowledge/search', { query: 'Satya Nadella' })).body.entities[0].id).toBe(
      nadella.id,
    );
    // Admins work on the installation's graph, not A's.
    expectNotFound(await as(ADMIN, 'GET', `/api/v1/knowledge/entities/${nadella.id}`), "admin reads A's graph");
    expect((await as(KEY_A, 'DELETE', `/api/v1/knowledge/entities/${nadella.id}`)).status).toBe(200);
    expect((await as(KEY_B, 'GET', `/api/v1/knowledge/entities/${nadella.id}`)).status).toBe(200);
  });
});

describe('caps per key', () => {
  let capped: RunningQuarry;
  beforeAll(async () => {
    capped = await startQuarry(
      site.web,
      { ...site.config(), quotas: { monitors: 2, monitorChecksPerHour: 20, corpora: 0, graphEntities: 3 } } as never,
      { apiKeys: [KEY_A, KEY_B] },
    );
  });
  afterAll(async () => {
    await capped?.close();
  });
  const at = async (key: string, method: string, path: string, body?: unknown): Promise<Answer> => {
    const response = await fetch(capped.url + path, {
      method,
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify(body ?? {}),
    });
    return { status: response.status, body: await response.json() };
  };
  const expectQuota = (answer: Answer, limit: string) => {
    expect(answer.status, JSON.stringify(answer.body)).toBe(403);
    expect(answer.body.error.code).toBe('QUOTA_EXCEEDED');
    expect(answer.body.error.message).toContain(limit);
    expect(answer.body.error.details.limit).toBe(limit);
  };

  it('refuses a monitor past the count or the checks an hour, per key', async () => {
    const hourly = await at(KEY_A, 'POST', '/api/v1/monitor/topics', monitorBody('one', 60));
    expect(hourly.status).toBe(200);
    // 1 + 12 checks an hour fit in 20; another 12 do not.
    expect((await at(KEY_A, 'POST', '/api/v1/monitor/topics', monitorBody('two', 5))).status).toBe(200);
    expectQuota(await at(KEY_A, 'POST', '/api/v1/monitor/topics', monitorBody('three', 5)), 'quotas.monitors');
    // B has its own budget.
    const b = await at(KEY_B, 'POST', '/api/v1/monitor/topics', monitorBody('b one', 5));
    expect(b.status).toBe(200);
    expectQuota(
      await at(KEY_B, 'POST', '/api/v1/monitor/topics', monitorBody('b two', 5)),
      'quotas.monitorChecksPerHour',
    );
    // A paused monitor's checks leave the budget; resuming one past it is refused.
    const bId = b.body.id;
    expect((await at(KEY_B, 'POST', `/api/v1/monitor/topics/${bId}/pause`)).status).toBe(200);
    const other = await at(KEY_B, 'POST', '/api/v1/monitor/topics', monitorBody('b three', 5));
    expect(other.status).toBe(200);
    expectQuota(await at(KEY_B, 'POST', `/api/v1/monitor/topics/${bId}/resume`), 'quotas.monitorChecksPerHour');
  });

  it('counts manual checks in the checks an hour: past it POST check is refused, naming the setting', async () => {
    const read = async (key: string, path: string) =>
      (await fetch(capped.url + path, { headers: { 'x-api-key': key } })).json();
    const [hourly] = (await read(KEY_A, '/api/v1/monitor/topics')).filter((m: { topic: string }) => m.topic === 'one');
    const path = `/api/v1/monitor/topics/${hourly.id}`;
    const settled = () =>
      until('the manual check to finish', async () => !(await read(KEY_A, path)).check_in_progress, 60_000);
    // A's monitors are scheduled for 1 + 12 checks an hour: 7 manual checks fit in 20.
    for (let i = 0; i < 7; i++) {
      const check = await at(KEY_A, 'POST', `${path}/check`);
      expect(check.status, JSON.stringify(check.body)).toBe(200);
      await settled();
    }
    expectQuota(await at(KEY_A, 'POST', `${path}/check`), 'quotas.monitorChecksPerHour');
    // B's budget is its own (12 scheduled of 20).
    const [bActive] = (await read(KEY_B, '/api/v1/monitor/topics')).filter(
      (m: { status: string }) => m.status === 'active',
    );
    expect((await at(KEY_B, 'POST', `/api/v1/monitor/topics/${bActive.id}/check`)).status).toBe(200);
  }, 120_000);

  it('refuses a corpus past quotas.corpora, before any job starts', async () => {
    expectQuota(
      await at(KEY_A, 'POST', '/api/v1/rag/research', { topic: 'heat pump', depth: 'quick', async: true }),
      'quotas.corpora',
    );
    expectQuota(
      await at(KEY_A, 'POST', '/api/v1/rag/research', { topic: 'heat pump', depth: 'quick' }),
      'quotas.corpora',
    );
  });

  it('refuses an extraction that would take a graph past quotas.graphEntities, whole; another key has its own graph', async () => {
    const graphSize = async (key: string) =>
      (await (await fetch(`${capped.url}/api/v1/knowledge/graph`, { headers: { 'x-api-key': key } })).json()).nodes
        .length;
    const preview = await at(KEY_A, 'POST', '/api/v1/knowledge/extract', { text: NEWS, store: false });
    expect(preview.status).toBe(200);
    const named = preview.body.entities.length;
    expect(named).toBeGreaterThan(3);
    // One extraction naming more entities than the cap of 3: refused, nothing of it stored.
    const large = await at(KEY_A, 'POST', '/api/v1/knowledge/extract', { text: NEWS });
    expectQuota(large, 'quotas.graphEntities');
    expect(large.body.error.message).toContain(`would add ${named} entities to the 0 stored, so nothing was stored`);
    expect(large.body.error.details).toMatchObject({ stored: 0, adding: named, max: 3 });
    expect(await graphSize(KEY_A)).toBe(0);
    // What fits is stored; past it, refused again; what is stored already can always be merged into.
    const one = 'Satya Nadella spoke on Tuesday.';
    expect((await at(KEY_A, 'POST', '/api/v1/knowledge/extract', { text: one })).body.entities).toHaveLength(1);
    expect((await at(KEY_A, 'POST', '/api/v1/knowledge/extract', { text: NEWS })).body.error.details).toMatchObject({
      stored: 1,
    });
    expect(
      (await at(KEY_A, 'POST', '/api/v1/knowledge/extract', { text: one, source_url: 'https://news.example/again' }))
        .status,
    ).toBe(200);
    expect(await graphSize(KEY_A)).toBe(1);
    expect((await at(KEY_B, 'POST', '/api/v1/knowledge/extract', { text: one })).status).toBe(200);
  });

  it('holds the graph cap under concurrent extractions: each stored whole or refused whole', async () => {
    const texts = [
      'Greta Hartmann',
      'Hiro Iversen',
      'Ines Jablonski',
      'Jonas Albrecht',
      'Kemal Brennan',
      'Lena Castillo',
    ].map((name) => `${name} spoke on Tuesday.`);
    const answers = await Promise.all(texts.map((text) => at(KEY_B, 'POST', '/api/v1/knowledge/extract', { text })));
    for (const answer of answers) expect([200, 403], JSON.stringify(answer.body)).toContain(answer.status);
    // B holds one entity already: two more fit.
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(2);
    expect(
      (await (await fetch(`${capped.url}/api/v1/knowledge/graph`, { headers: { 'x-api-key': KEY_B } })).json()).nodes,
    ).toHaveLength(3);
  });
});
