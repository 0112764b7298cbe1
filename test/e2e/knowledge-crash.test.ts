/**
 * Durability of the knowledge graph: the built server, in a child process,
 * answers a burst of extractions; it is killed with SIGKILL mid-burst; a new
 * instance on the same data directory must hold every entity and relation
 * of every extraction that was answered.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../core/paths.js';
import { startSandboxWeb, type SandboxWeb } from '../sandbox/sandbox-web.js';
import { startQuarry, TEST_KEY, type RunningQuarry } from './harness.js';
import { freePort } from '../sandbox/free-port.js';
import { until } from '../sandbox/until.js';

const FIRST = ['Maria', 'John', 'Anna', 'David', 'Laura', 'Peter', 'Sofia', 'Michael', 'Elena', 'Thomas'];
const LAST = ['Keller', 'Morrison', 'Lindqvist', 'Okafor', 'Brennan', 'Castillo', 'Nakamura', 'Fischer'];
const ORGS = ['Northwind', 'Contoso', 'Fabrikam', 'Tailspin', 'Wingtip', 'Litware', 'Proseware', 'Adatum'];

const texts = Array.from({ length: 48 }, (_, i) => {
  const person = `${FIRST[i % FIRST.length]} ${LAST[Math.floor(i / FIRST.length) % LAST.length]}`;
  const org = `${ORGS[i % ORGS.length]} Systems Inc.`;
  return `${person}, chief executive of ${org}, said on Monday that the company will open an office in Denver, Colorado. ${person.split(' ')[1]} spoke to reporters.`;
});

let child: ChildProcess | undefined;
let web: SandboxWeb | undefined;
let quarry: RunningQuarry | undefined;
const dataDir = mkdtempSync(join(tmpdir(), 'quarry-kg-crash-'));

afterAll(async () => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await quarry?.close();
  await web?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

it('keeps every answered extraction when the server is killed with SIGKILL mid-burst', async () => {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let stderr = '';
  child = spawn(process.execPath, [join(PACKAGE_ROOT, 'dist/hosts/cli/main.js'), 'serve'], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: dataDir,
      QUARRY_DATA_DIR: dataDir,
      QUARRY_API_KEYS: TEST_KEY,
      QUARRY_PORT: String(port),
      QUARRY_HOST: '127.0.0.1',
      QUARRY_LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  // A fetch that throws is "not listening yet".
  await until('the server to come up', async () => (await fetch(`${url}/healthz`)).ok, 30_000);

  const answered: Array<{
    entities: Array<{ id: string }>;
    relationships: Array<{ from_entity: string; to_entity: string; type: string }>;
  }> = [];
  let next = 0;
  const worker = async () => {
    while (next < texts.length) {
      const text = texts[next++]!;
      try {
        const res = await fetch(`${url}/api/v1/knowledge/extract`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': TEST_KEY },
          body: JSON.stringify({ text, source_url: `https://burst.example/${next}` }),
        });
        if (res.status !== 200) continue;
        answered.push((await res.json()) as (typeof answered)[number]);
        if (answered.length >= 12 && child!.exitCode === null) child!.kill('SIGKILL');
      } catch {
        return; // the server is gone
      }
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  await new Promise<void>((resolve) =>
    child!.exitCode !== null || child!.signalCode !== null ? resolve() : child!.once('exit', () => resolve()),
  );
  expect(child.signalCode, stderr).toBe('SIGKILL');
  expect(answered.length).toBeGreaterThanOrEqual(12);
  expect(answered.length).toBeLessThan(texts.length);

  web = await startSandboxWeb();
  quarry = await startQuarry(web, { dataDir });
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
