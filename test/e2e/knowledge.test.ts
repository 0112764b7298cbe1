/**
 * The knowledge area end to end over HTTP: offline extraction merged into
 * the durable graph, alias merging on real text from three pages, search,
 * people, entity, graph, deletion, a restart on the same data directory,
 * extraction by a (scripted) language model with the offline fallback, the
 * background feed from pages, and bad input.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedServer, type ScriptedServer } from '../../services/llm/fixtures/scripted-server.js';
import { startSandboxWeb, type SandboxWeb } from '../sandbox/sandbox-web.js';
import { startQuarry, TEST_KEY, type RunningQuarry } from './harness.js';
import { until } from '../sandbox/until.js';

const fixture = (name: string) =>
  JSON.parse(readFileSync(join(import.meta.dirname, '..', 'fixtures', 'knowledge', name), 'utf8')) as {
    pages: Array<{ url: string; title: string; text: string }>;
  };

const NEWS =
  'Microsoft Corp. said on Tuesday that its chief executive, Satya Nadella, will visit London next month. ' +
  'Nadella told reporters that Microsoft (NASDAQ: MSFT) partnered with OpenAI last year. ' +
  'Lucas Paganini, a planetary scientist at NASA, led the study. Dataminr acquires ThreatConnect. ' +
  'Apple CEO Tim Cook said the company would expand in Austin, Texas.';

let web: SandboxWeb;
let quarry: RunningQuarry;
let dataDir: string;

beforeAll(async () => {
  web = await startSandboxWeb();
  dataDir = mkdtempSync(join(tmpdir(), 'quarry-knowledge-'));
  quarry = await startQuarry(web, { dataDir });
});

afterAll(async () => {
  await quarry?.close();
  await web?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('knowledge extraction', () => {
  it('extracts typed entities and cue-pattern relations offline and merges them into the graph', async () => {
    const res = await quarry.post('/api/v1/knowledge/extract', {
      text: NEWS,
      source_url: 'https://news.example/nadella',
      published_date: '2025-03-04',
    });
    expect(res.status).toBe(200);
    const { entities, relationships, model_used, stored, processing_time_ms } = res.body;
    expect(model_used).toBe('offline-tagger');
    expect(stored).toBe(true);
    expect(Number.isInteger(processing_time_ms)).toBe(true);
    const byName = (name: string) => entities.find((e: any) => e.name === name);
    const microsoft = byName('Microsoft Corp.');
    expect(microsoft).toMatchObject({ type: 'organization', source_count: 1 });
    expect(microsoft.id).toMatch(/^ent_[0-9a-f]{16}$/);
    expect(microsoft.metadata.aliases).toEqual(expect.arrayContaining(['Microsoft Corp.', 'Microsoft', 'MSFT']));
    expect(microsoft.metadata.merged).toEqual(expect.arrayContaining([{ alias: 'MSFT', rule: 'parenthetical' }]));
    const nadella = byName('Satya Nadella');
    expect(nadella.metadata.aliases).toContain('Nadella');
    expect(nadella.metadata.merged).toContainEqual({ alias: 'Nadella', rule: 'surname' });
    expect(byName('London').type).toBe('location');
    const rel = (from: string, type: string, to: string) =>
      relationships.find(
        (r: any) => r.from_entity === byName(from)?.id && r.type === type && r.to_entity === byName(to)?.id,
      );
    expect(rel('Lucas Paganini', 'works_for', 'NASA')).toMatchObject({ weight: 1, source: 'direct' });
    expect(rel('Tim Cook', 'leads', 'Apple')).toBeDefined();
    expect(rel('Austin', 'part_of', 'Texas')).toBeDefined();
  });

  // A known miss of the offline model trained on the CV folds (2026-12-02): it leaves "ThreatConnect" untagged.
  // `it.fails` passes while the model misses it and fails, asking for `it`, once a model finds it.
  it.fails('finds the acquisition in the same text ("Dataminr acquires ThreatConnect"; known miss)', async () => {
    const res = await quarry.post('/api/v1/knowledge/extract', { text: NEWS, store: false });
    const id = (name: string) => res.body.entities.find((e: any) => e.name === name)?.id;
    expect(
      res.body.relationships.find(
        (r: any) => r.from_entity === id('Dataminr') && r.type === 'acquired' && r.to_entity === id('ThreatConnect'),
      ),
    ).toBeDefined();
  });

  it('extracts only the requested types (company is organization), and store: false leaves the graph alone', async () => {
    const text =
      'Acme Robotics Inc. partnered with Globex Corp. in Seattle, said Jane Porter, a spokeswoman for Acme Robotics.';
    const res = await quarry.post('/api/v1/knowledge/extract', { text, types: ['company'], store: false });
    expect(res.status).toBe(200);
    expect(res.body.stored).toBe(false);
    expect(res.body.entities.map((e: any) => e.name)).toContain('Globex Corp.');
    expect(res.body.entities.every((e: any) => e.type === 'organization')).toBe(true);
    for (const entity of res.body.entities)
      expect((await quarry.get(`/api/v1/knowledge/entities/${entity.id}`)).status).toBe(404);
    const all = await quarry.post('/api/v1/knowledge/extract', { text, store: false });
    expect(all.body.entities.map((e: any) => e.type)).toEqual(
      expect.arrayContaining(['organization', 'location', 'person']),
    );
  });

  it('makes one entity of a company named three ways on three pages, with source_count 3', async () => {
    const ids = new Set<string>();
    let last: any;
    for (const page of fixture('salesforce-three-pages.json').pages) {
      const res = await quarry.post('/api/v1/knowledge/extract', {
        text: page.text,
        source_url: page.url,
        source_title: page.title,
      });
      expect(res.status).toBe(200);
      const salesforce = res.body.entities.find((e: any) =>
        e.metadata.aliases.some((a: string) => /^Salesforce/.test(a)),
      );
      expect(salesforce, page.url).toBeDefined();
      ids.add(salesforce.id);
      last = salesforce;
    }
    expect(ids.size).toBe(1);
    expect(last.type).toBe('organization');
    expect(last.source_count).toBe(3);
    expect(last.metadata.aliases).toEqual(expect.arrayContaining(['Salesforce', 'CRM', 'Salesforce.com, Inc']));
    expect(last.metadata.merged).toEqual(
      expect.arrayContaining([
        { alias: 'CRM', rule: 'parenthetical' },
        { alias: 'Salesforce.com, Inc', rule: 'designator' },
      ]),
    );
    // The same page again is not a new source.
    const page = fixture('salesforce-three-pages.json').pages[0]!;
    const again = await quarry.post('/api/v1/knowledge/extract', { text: page.text, source_url: page.url });
    expect(again.body.entities.find((e: any) => e.id === last.id).source_count).toBe(3);
  });

  it('reads a news example offline: three separate companies, and Nadella leads Microsoft with the sentence as evidence', async () => {
    const text =
      'Satya Nadella is the chief executive of Microsoft, which is based in Redmond, Washington. ' +
      'Tim Cook leads Apple in Cupertino; Apple competes with Microsoft and Google.';
    const res = await quarry.post('/api/v1/knowledge/extract', { text, store: false });
    expect(res.status).toBe(200);
    const { entities, relationships } = res.body;
    const byName = (name: string) => entities.find((e: any) => e.name === name);
    for (const company of ['Microsoft', 'Apple', 'Google']) expect(byName(company)?.type, company).toBe('organization');
    expect(entities.some((e: any) => / and /.test(e.name))).toBe(false);
    const leads = relationships.find(
      (r: any) =>
        r.from_entity === byName('Satya Nadella')?.id && r.type === 'leads' && r.to_entity === byName('Microsoft')?.id,
    );
    expect(leads).toMatchObject({
      source: 'direct',
      evidence: 'Satya Nadella is the chief executive of Microsoft, which is based in Redmond, Washington.',
    });
    const cook = relationships.find(
      (r: any) => r.from_entity === byName('Tim Cook')?.id && r.type === 'leads' && r.to_entity === byName('Apple')?.id,
    );
    expect(cook?.evidence).toMatch(/^Tim Cook leads Apple/);
  });
});

describe('knowledge reads', () => {
  it('searches by name, alias and words, with the relationships around the hits', async () => {
    const byName = await quarry.post('/api/v1/knowledge/search', { query: 'Satya Nadella' });
    expect(byName.status).toBe(200);
    expect(byName.body.query).toBe('Satya Nadella');
    expect(byName.body.entities[0]).toMatchObject({ name: 'Satya Nadella', type: 'person' });
    expect(byName.body.entities[0].metadata.match).toBe('name');
    const byAlias = await quarry.post('/api/v1/knowledge/search', { query: 'MSFT', include_relationships: true });
    const microsoft = byAlias.body.entities[0];
    expect(microsoft.name).toBe('Microsoft Corp.');
    expect(
      byAlias.body.relationships.some((r: any) => r.from_entity === microsoft.id || r.to_entity === microsoft.id),
    ).toBe(true);
    const filtered = await quarry.post('/api/v1/knowledge/search', {
      query: 'Microsoft',
      entity_types: ['person'],
      include_relationships: false,
    });
    expect(filtered.body.entities.every((e: any) => e.type === 'person')).toBe(true);
    expect(filtered.body.relationships).toEqual([]);
    const byMeaning = await quarry.post('/api/v1/knowledge/search', {
      query: 'planetary scientist',
      entity_types: ['person'],
    });
    expect(byMeaning.body.entities[0]).toMatchObject({ name: 'Lucas Paganini' });
    expect(byMeaning.body.entities[0].metadata.match).toBe('meaning');
    const capped = await quarry.post('/api/v1/knowledge/search', {
      query: 'Salesforce NASA Microsoft',
      max_results: 2,
    });
    expect(capped.body.entities.length).toBeLessThanOrEqual(2);
  });

  it('finds people with title, organization, expertise and dated recent activity; email is null', async () => {
    const res = await quarry.post('/api/v1/knowledge/people', { query: 'Lucas Paganini' });
    expect(res.status).toBe(200);
    const [person] = res.body.people;
    expect(person).toMatchObject({ name: 'Lucas Paganini', organization: 'NASA', email: null });
    expect(person.title).toMatch(/scientist/);
    expect(person.recent_activity[0]).toMatchObject({ date: '2025-03-04', url: 'https://news.example/nadella' });
    const viaOrg = await quarry.post('/api/v1/knowledge/people', { query: 'Apple', role: 'CEO' });
    expect(viaOrg.body.people.map((p: any) => p.name)).toContain('Tim Cook');
    const filtered = await quarry.post('/api/v1/knowledge/people', { query: 'Tim Cook', organization: 'Microsoft' });
    expect(filtered.body.people).toEqual([]);
  });

  it('returns an entity with its relationships, and the most connected part of the graph first', async () => {
    const search = await quarry.post('/api/v1/knowledge/search', { query: 'Microsoft Corp.' });
    const id = search.body.entities[0].id;
    const one = await quarry.get(`/api/v1/knowledge/entities/${id}`);
    expect(one.status).toBe(200);
    expect(one.body.entity.id).toBe(id);
    expect(one.body.relationships.length).toBe(one.body.entity.metadata.degree);
    const graph = await quarry.get('/api/v1/knowledge/graph?limit=5');
    expect(graph.status).toBe(200);
    expect(graph.body.nodes.length).toBeLessThanOrEqual(5);
    const degrees = graph.body.nodes.map((n: any) => n.degree);
    expect(degrees).toEqual([...degrees].sort((a, b) => b - a));
    const ids = new Set(graph.body.nodes.map((n: any) => n.id));
    for (const edge of graph.body.edges) expect(ids.has(edge.from) && ids.has(edge.to)).toBe(true);
    const people = await quarry.get('/api/v1/knowledge/graph?entity_types=person,location');
    expect(people.body.nodes.every((n: any) => ['person', 'location'].includes(n.type))).toBe(true);
  });

  it('deletes an entity with its relations and alias entries; unknown ids are 404', async () => {
    // An organisation with a relation from a person (the entity deleted) that the offline model finds.
    const extracted = await quarry.post('/api/v1/knowledge/extract', {
      text: 'Lucas Paganini, a planetary scientist at NASA, led the study.',
    });
    const nasa = extracted.body.entities.find((e: any) => e.name === 'NASA');
    const del = await quarry.server.inject({
      method: 'DELETE',
      url: `/api/v1/knowledge/entities/${nasa.id}`,
      headers: { 'x-api-key': 'test-key-0123456789' },
    });
    expect(del.statusCode).toBe(200);
    expect(del.json()).toEqual({ deleted: true, entity_id: nasa.id });
    expect((await quarry.get(`/api/v1/knowledge/entities/${nasa.id}`)).status).toBe(404);
    const search = await quarry.post('/api/v1/knowledge/search', { query: 'NASA' });
    expect(search.body.entities.map((e: any) => e.id)).not.toContain(nasa.id);
    const paganini = await quarry.post('/api/v1/knowledge/search', { query: 'Lucas Paganini' });
    expect(paganini.body.entities.length).toBeGreaterThan(0);
    expect(paganini.body.relationships.filter((r: any) => r.to_entity === nasa.id)).toEqual([]);
    const again = await quarry.server.inject({
      method: 'DELETE',
      url: `/api/v1/knowledge/entities/${nasa.id}`,
      headers: { 'x-api-key': 'test-key-0123456789' },
    });
    expect(again.statusCode).toBe(404);
    expect(again.json().error.code).toBe('NOT_FOUND');
  });

  it('answers the same after a restart on the same data directory', async () => {
    const before = {
      search: (await quarry.post('/api/v1/knowledge/search', { query: 'Salesforce' })).body,
      people: (await quarry.post('/api/v1/knowledge/people', { query: 'Lucas Paganini' })).body,
      graph: (await quarry.get('/api/v1/knowledge/graph?limit=50')).body,
    };
    const id = before.search.entities[0].id;
    const entity = (await quarry.get(`/api/v1/knowledge/entities/${id}`)).body;
    await quarry.server.close();
    await quarry.app.close();
    quarry = await startQuarry(web, { dataDir });
    expect((await quarry.post('/api/v1/knowledge/search', { query: 'Salesforce' })).body).toEqual(before.search);
    expect((await quarry.post('/api/v1/knowledge/people', { query: 'Lucas Paganini' })).body).toEqual(before.people);
    expect((await quarry.get('/api/v1/knowledge/graph?limit=50')).body).toEqual(before.graph);
    expect((await quarry.get(`/api/v1/knowledge/entities/${id}`)).body).toEqual(entity);
  });
});

describe('bad input gets a 4xx naming the field', () => {
  it.each([
    ['POST', '/api/v1/knowledge/extract', { text: '   ' }, 'text: must not be empty'],
    ['POST', '/api/v1/knowledge/extract', { text: 'x'.repeat(100_001) }, 'text: must be at most 100000 characters'],
    ['POST', '/api/v1/knowledge/extract', { text: 'Apple', types: ['planet'] }, 'types.0: must be one of person'],
    ['POST', '/api/v1/knowledge/extract', { text: 'Apple', types: [] }, 'types:'],
    ['POST', '/api/v1/knowledge/search', { query: '' }, 'query: must not be empty'],
    ['POST', '/api/v1/knowledge/search', { query: 'x', max_results: 0 }, 'max_results:'],
    ['POST', '/api/v1/knowledge/search', { query: 'x', max_results: 101 }, 'max_results:'],
    ['POST', '/api/v1/knowledge/search', { query: 'x', entity_types: ['galaxy'] }, 'entity_types.0:'],
    ['POST', '/api/v1/knowledge/people', { query: 'x', max_results: 1000 }, 'max_results:'],
    ['GET', '/api/v1/knowledge/graph?limit=0', null, 'limit:'],
    ['GET', '/api/v1/knowledge/graph?limit=1001', null, 'limit:'],
    ['GET', '/api/v1/knowledge/graph?entity_types=moon', null, 'entity_types.0:'],
    ['GET', '/api/v1/knowledge/entities/not-an-id', null, 'entity_id: must be an entity id'],
  ])('%s %s → 400 naming %s', async (method, path, body, field) => {
    const res = method === 'POST' ? await quarry.post(path, body) : await quarry.get(path);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_INPUT');
    expect(res.body.error.message).toContain(field);
  });

  it('ignores an unknown top-level field over HTTP and names it in X-Quarry-Ignored-Fields', async () => {
    const res = await quarry.post('/api/v1/knowledge/people', { query: 'x', unknown: 1 });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-quarry-ignored-fields')).toBe('unknown');
  });

  it('an unknown but well-formed id is 404', async () => {
    const res = await quarry.get('/api/v1/knowledge/entities/ent_0000000000000000');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
  });
});

describe('with a language model configured', () => {
  let llm: ScriptedServer;
  let withLlm: RunningQuarry;
  beforeAll(async () => {
    llm = await startScriptedServer();
    withLlm = await startQuarry(web, {
      llm: {
        fast: { provider: 'openai-compatible', baseUrl: `${llm.origin}/v1`, model: 'scripted-7b', maxRetries: 0 },
      },
    });
  });
  afterAll(async () => {
    await withLlm?.close();
    await llm?.close();
  });

  const completion = (content: unknown) => ({
    json: {
      id: 'x',
      model: 'scripted-7b',
      choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: JSON.stringify(content) } }],
    },
  });

  it('extracts with the model and says so in model_used', async () => {
    llm.script(
      completion({
        entities: [
          {
            name: 'Ada Lovelace',
            type: 'person',
            description: 'Mathematician',
            aliases: ['Lovelace'],
            title: 'mathematician',
          },
          {
            name: 'Analytical Engine',
            type: 'technology',
            description: 'A mechanical computer',
            aliases: [],
            title: '',
          },
        ],
        relations: [
          { from: 'Ada Lovelace', to: 'Analytical Engine', type: 'developed', evidence: 'wrote programs for' },
        ],
      }),
    );
    const res = await withLlm.post('/api/v1/knowledge/extract', {
      text: 'Ada Lovelace wrote the first programs for the Analytical Engine. Lovelace was a mathematician.',
    });
    expect(res.status).toBe(200);
    expect(res.body.model_used).toBe('scripted-7b');
    expect(llm.received.at(-1)!.body.response_format).toBeDefined();
    const ada = res.body.entities.find((e: any) => e.name === 'Ada Lovelace');
    expect(ada.metadata.aliases).toEqual(['Ada Lovelace', 'Lovelace']);
    expect(ada.metadata.merged).toEqual([{ alias: 'Lovelace', rule: 'model-alias' }]);
    expect(res.body.relationships).toEqual([
      expect.objectContaining({ from_entity: ada.id, type: 'developed', weight: 1, source: 'direct' }),
    ]);
  });

  it('falls back to the offline tagger when the model fails', async () => {
    llm.script({ status: 500, json: { error: { message: 'model crashed' } } });
    const res = await withLlm.post('/api/v1/knowledge/extract', {
      text: 'Satya Nadella, chief executive of Microsoft, spoke in Seattle.',
    });
    expect(res.status).toBe(200);
    expect(res.body.model_used).toBe('offline-tagger');
    expect(res.body.entities.map((e: any) => e.name)).toEqual(
      expect.arrayContaining(['Satya Nadella', 'Microsoft', 'Seattle']),
    );
  });
});

describe('feeding the graph from the pages Quarry reads', () => {
  it('extracts pages in the background when knowledge.feedFromPages is on', async () => {
    // The page feed fills the installation's graph, which admins read (docs/http-api.md "Keys and ownership").
    const fed = await startQuarry(
      web,
      { knowledge: { feedFromPages: true } },
      { apiKeys: [], adminApiKeys: [TEST_KEY] },
    );
    try {
      const text = fixture('salesforce-three-pages.json').pages[1]!.text;
      fed.app.services.events.emit('page.extracted', {
        url: 'https://crn.example/cook',
        title: 'Cook on the enterprise',
        text,
        publishedDate: '2019-11-19',
        author: null,
      });
      const found: any[] = await until(
        'the fed page to reach the knowledge graph',
        async () => {
          // Tim Cook, not Marc Benioff: the 2026-12-02 model names him "co-CEO Marc Benioff" on this page (a known
          // miss, services/entities/entities.test.ts).
          const entities = (await fed.post('/api/v1/knowledge/search', { query: 'Tim Cook' })).body.entities;
          return entities.length > 0 && entities;
        },
        5_000,
        50,
      );
      expect(found[0]).toMatchObject({ name: 'Tim Cook', source_count: 1 });
      expect(found[0].metadata.sources[0]).toEqual({
        url: 'https://crn.example/cook',
        title: 'Cook on the enterprise',
        date: '2019-11-19',
      });
      const features = await fed.get('/api/v1/enhanced/features');
      expect(features.body.features.knowledge_graph.info.feed_from_pages).toBe(true);
    } finally {
      await fed.close();
    }
  });

  it('is off by default', async () => {
    // Two pages at once: a feeder that listened would be reading the first and hold the second in
    // its queue as the events are emitted (synchronously), so an empty queue shows none took them.
    for (const url of ['https://off.example/1', 'https://off.example/2']) {
      quarry.app.services.events.emit('page.extracted', {
        url,
        title: 'x',
        text: `${'Zanzibar Quill founded Quillworks in Nairobi. '.repeat(8)}`,
        publishedDate: null,
        author: null,
      });
    }
    const info = (await quarry.get('/api/v1/enhanced/features')).body.features.knowledge_graph.info;
    expect(info).toMatchObject({ feed_from_pages: false, feeder: { queued: 0, extracted: 0, failed: 0, dropped: 0 } });
    expect((await quarry.post('/api/v1/knowledge/search', { query: 'Quillworks' })).body.entities).toEqual([]);
  });
});
