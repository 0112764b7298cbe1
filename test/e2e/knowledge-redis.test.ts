/**
 * With a Redis URL the knowledge graph lives on Redis: two Quarry instances
 * on one Redis share it (one extracts, the other finds, counts and deletes),
 * and its cap (quotas.graphEntities) holds across them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasRedisServer, startLocalRedis, type LocalRedis } from '../sandbox/local-redis.js';
import { startSandboxWeb, type SandboxWeb } from '../sandbox/sandbox-web.js';
import { startQuarry, TEST_KEY, type RunningQuarry } from './harness.js';

const CAP = 6;

describe.runIf(hasRedisServer)('knowledge graph on Redis', () => {
  let redis: LocalRedis;
  let web: SandboxWeb;
  let first: RunningQuarry;
  let second: RunningQuarry;

  beforeAll(async () => {
    redis = await startLocalRedis();
    web = await startSandboxWeb();
    const quotas = { graphEntities: CAP };
    first = await startQuarry(web, { redisUrl: redis.url, quotas });
    second = await startQuarry(web, { redisUrl: redis.url, quotas });
  });

  afterAll(async () => {
    await first?.close();
    await second?.close();
    await web?.close();
    await redis?.stop();
  });

  it('shares one graph between instances', async () => {
    const features = await first.get('/api/v1/enhanced/features');
    expect(features.body.features.knowledge_graph.info.backend).toBe('redis');
    const text = 'Satya Nadella, chief executive of Microsoft, said Microsoft partnered with OpenAI.';
    const a = await first.post('/api/v1/knowledge/extract', { text, source_url: 'https://one.example/a' });
    const b = await second.post('/api/v1/knowledge/extract', { text, source_url: 'https://two.example/b' });
    expect(a.status).toBe(200);
    const nadella = b.body.entities.find((e: any) => e.name === 'Satya Nadella');
    expect(nadella.id).toBe(a.body.entities.find((e: any) => e.name === 'Satya Nadella').id);
    expect(nadella.source_count).toBe(2);
    const leads = b.body.relationships.find((r: any) => r.type === 'leads');
    expect(leads.weight).toBe(2);
    const found = await first.post('/api/v1/knowledge/people', { query: 'Satya Nadella' });
    expect(found.body.people[0]).toMatchObject({ name: 'Satya Nadella', organization: 'Microsoft' });
    const del = await second.server.inject({
      method: 'DELETE',
      url: `/api/v1/knowledge/entities/${nadella.id}`,
      headers: { 'x-api-key': TEST_KEY },
    });
    expect(del.statusCode).toBe(200);
    expect((await first.get(`/api/v1/knowledge/entities/${nadella.id}`)).status).toBe(404);
  });

  it('holds the graph cap across instances: concurrent extractions on both are each stored whole or refused whole', async () => {
    const size = async () => (await first.get('/api/v1/knowledge/graph')).body.nodes.length as number;
    const before = await size();
    const names = [
      'Greta Hartmann',
      'Hiro Iversen',
      'Ines Jablonski',
      'Jonas Albrecht',
      'Kemal Brennan',
      'Lena Castillo',
      'Anna Dunmore',
      'Boris Eriksen',
    ];
    const answers = await Promise.all(
      names.map((name, i) =>
        (i % 2 ? second : first).post('/api/v1/knowledge/extract', { text: `${name} spoke on Tuesday.` }),
      ),
    );
    for (const answer of answers) {
      expect([200, 403], JSON.stringify(answer.body)).toContain(answer.status);
      if (answer.status === 403)
        expect(answer.body.error).toMatchObject({ code: 'QUOTA_EXCEEDED', details: { limit: 'quotas.graphEntities' } });
    }
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(CAP - before);
    expect(await size()).toBe(CAP);
  });
});
