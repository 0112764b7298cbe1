/**
 * Durability of the knowledge graph: the built server, in a child process,
 * answers a burst of extractions; it is killed with SIGKILL mid-burst; a new
 * instance on the same data directory must hold every entity and relation
 * of every extraction that was answered.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { startSandboxWeb, type SandboxWeb } from '../sandbox/sandbox-web.js';
import { startQuarry, type RunningQuarry } from './harness.js';
import { spawnQuarry, type QuarryProcess } from './quarry-process.js';

const FIRST = ['Maria', 'John', 'Anna', 'David', 'Laura', 'Peter', 'Sofia', 'Michael', 'Elena', 'Thomas'];
const LAST = ['Keller', 'Morrison', 'Lindqvist', 'Okafor', 'Brennan', 'Castillo', 'Nakamura', 'Fischer'];
const ORGS = ['Northwind', 'Contoso', 'Fabrikam', 'Tailspin', 'Wingtip', 'Litware', 'Proseware', 'Adatum'];

const texts = Array.from({ length: 48 }, (_, i) => {
  const person = `${FIRST[i % FIRST.length]} ${LAST[Math.floor(i / FIRST.length) % LAST.length]}`;
  const org = `${ORGS[i % ORGS.length]} Systems Inc.`;
  return `${person}, chief executive of ${org}, said on Monday that the company will open an office in Denver, Colorado. ${person.split(' ')[1]} spoke to reporters.`;
});

let child: QuarryProcess | undefined;
let web: SandboxWeb | undefined;
let quarry: RunningQuarry | undefined;
const dataDir = mkdtempSync(join(tmpdir(), 'quarry-kg-crash-'));

afterAll(async () => {
  child?.kill('SIGKILL');
  await quarry?.close();
  await web?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

it('keeps every answered extraction when the server is killed with SIGKILL mid-burst', async () => {
  web = await startSandboxWeb();
  const server = await spawnQuarry({ web, dataDir });
  child = server;
  let killed = false;

  const answered: Array<{
    entities: Array<{ id: string }>;
    relationships: Array<{ from_entity: string; to_entity: string; type: string }>;
  }> = [];
  let next = 0;
  const worker = async () => {
    while (next < texts.length) {
      const text = texts[next++]!;
      try {
        const res = await server.post('/api/v1/knowledge/extract', {
          text,
          source_url: `https://burst.example/${next}`,
        });
        if (res.status !== 200) continue;
        answered.push(res.body as (typeof answered)[number]);
        if (answered.length >= 12 && !killed) {
          killed = true;
          server.kill('SIGKILL');
        }
      } catch {
        return; // the server is gone
      }
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  expect((await server.exited).signal, server.logs()).toBe('SIGKILL');
  expect(answered.length).toBeGreaterThanOrEqual(12);
  expect(answered.length).toBeLessThan(texts.length);

  quarry = await startQuarry(web, {}, { dataDir });
  for (const response of answered) {
    expect(response.entities.length).toBeGreaterThan(0);
    for (const entity of response.entities) {
      const stored = await quarry.get(`/api/v1/knowledge/entities/${entity.id}`);
      expect(stored.status, entity.id).toBe(200);
    }
    for (const relation of response.relationships) {
      const stored = await quarry.get(`/api/v1/knowledge/entities/${relation.from_entity}`);
      expect(stored.body.relationships).toContainEqual(
        expect.objectContaining({
          from_entity: relation.from_entity,
          to_entity: relation.to_entity,
          type: relation.type,
        }),
      );
    }
  }
  const leaders = answered.flatMap((r) => r.relationships.filter((x) => x.type === 'leads'));
  expect(leaders.length).toBeGreaterThan(0);
}, 120_000);
