/**
 * Issue 28 part 3: many knowledge/extract requests at once, naming the same
 * entities, all succeed — on the embedded SQLite graph and on Redis shared
 * by two instances — and no update is lost: every entity ends with one
 * source per request that answered with it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalRedis, type LocalRedis } from '../sandbox/local-redis.js';
import { startSandboxWeb, type SandboxWeb } from '../sandbox/sandbox-web.js';
import { startQuarry, type RunningQuarry } from './harness.js';

const PEOPLE = [
  ['Satya Nadella', 'Microsoft'],
  ['Sundar Pichai', 'Google'],
  ['Tim Cook', 'Apple'],
  ['Sam Altman', 'OpenAI'],
  ['Jensen Huang', 'Nvidia'],
] as const;

/** Request i names two of five people and three of five companies, so every pair of requests shares entities. */
function text(i: number): string {
  const [person, company] = PEOPLE[i % PEOPLE.length]!;
  const [other, partner] = PEOPLE[(i + 1) % PEOPLE.length]!;
  const [, third] = PEOPLE[(i + 3) % PEOPLE.length]!;
  return `${person}, chief executive of ${company}, said ${company} partnered with ${partner}. ${other} of ${partner} said ${partner} competes with ${third}.`;
}

async function extractAll(instances: RunningQuarry[], count: number) {
  return Promise.all(
    Array.from({ length: count }, (_, i) =>
      instances[i % instances.length]!.post('/api/v1/knowledge/extract', {
        text: text(i),
        source_url: `https://news.example/${i}`,
      }),
    ),
  );
}

async function expectNothingLost(answers: Array<{ status: number; body: any }>, reader: RunningQuarry) {
  const failed = answers
    .filter((a) => a.status !== 200)
    .map((a) => `${a.status} ${JSON.stringify(a.body).slice(0, 200)}`);
  expect(failed).toEqual([]);
  const mentions = new Map<string, number>();
  for (const { body } of answers)
    for (const entity of body.entities as Array<{ id: string }>)
      mentions.set(entity.id, (mentions.get(entity.id) ?? 0) + 1);
  expect(mentions.size).toBeGreaterThanOrEqual(PEOPLE.length * 2);
  for (const [id, count] of mentions) {
    const stored = await reader.get(`/api/v1/knowledge/entities/${id}`);
    expect(stored.status, id).toBe(200);
    expect(stored.body.entity.source_count, stored.body.entity.name).toBe(count);
  }
}

let web: SandboxWeb;

beforeAll(async () => {
  web = await startSandboxWeb();
});

afterAll(async () => {
  await web?.close();
});

describe('50 concurrent extractions with overlapping entities', () => {
  it('all succeed on the SQLite graph, and every source is counted', async () => {
    const quarry = await startQuarry(web);
    try {
      await expectNothingLost(await extractAll([quarry], 50), quarry);
    } finally {
      await quarry.close();
    }
  }, 120_000);

  describe('on Redis, split between two instances', () => {
    let redis: LocalRedis;
    let first: RunningQuarry;
    let second: RunningQuarry;

    beforeAll(async () => {
      redis = await startLocalRedis();
      first = await startQuarry(web, { redisUrl: redis.url });
      second = await startQuarry(web, { redisUrl: redis.url });
    });

    afterAll(async () => {
      await first?.close();
      await second?.close();
      await redis?.stop();
    });

    it('all succeed, and every source is counted', async () => {
      await expectNothingLost(await extractAll([first, second], 50), first);
    }, 120_000);
  });
});
