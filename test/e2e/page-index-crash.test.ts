/**
 * The page index's batches and a crash: the built server (`quarry serve`, a child process) answers scrapes of pages
 * whose batch is not due yet (vectorIndex.batchWaitMs of a minute), is killed with SIGKILL, and a new server on the
 * same data directory indexes those pages from its journal: a page read and answered is never lost from the index.
 */
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { siteArticle } from '../sandbox/firecrawl-site.js';
import { startSandboxWeb, type SandboxWeb } from '../sandbox/sandbox-web.js';
import { until } from '../sandbox/until.js';
import { spawnQuarry, type QuarryProcess } from './quarry-process.js';

const PAGES = [3, 4, 5];
let web: SandboxWeb;
const children: QuarryProcess[] = [];
let dataDir: string | undefined;

beforeAll(async () => {
  web = await startSandboxWeb();
  for (const i of PAGES) web.addPage(`/stone/${i}`, siteArticle(i, []), { contentType: 'text/html; charset=utf-8' });
}, 60_000);

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await Promise.all(children.map((child) => child.exited));
  await web?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function serve(config: Record<string, unknown>, reuse?: string): Promise<QuarryProcess> {
  const child = await spawnQuarry({ web, config, ...(reuse ? { dataDir: reuse } : {}) });
  children.push(child);
  return child;
}

const indexer = async (quarry: QuarryProcess) =>
  (await quarry.get('/api/v1/enhanced/performance')).body.runtime.page_indexer as { indexed: number; queued: number };

it('indexes, after a SIGKILL, the pages a server had answered and not yet written', async () => {
  const first = await serve({ vectorIndex: { batchWaitMs: 60_000 } });
  dataDir = first.dataDir;
  const answered = new Map<number, string>();
  for (const i of PAGES) {
    const scraped = await first.post('/firecrawl/v2/scrape', { url: `${web.url}/stone/${i}`, formats: ['markdown'] });
    expect(scraped.status).toBe(200);
    expect(scraped.body.data.markdown).toContain(`Page ${i} describes`);
    answered.set(i, scraped.body.data.markdown);
  }
  // Answered, and waiting for a batch that is a minute away: only the journal holds them when the process dies.
  expect(await indexer(first)).toMatchObject({ indexed: 0, queued: PAGES.length });
  first.kill('SIGKILL');
  expect((await first.exited).signal).toBe('SIGKILL');
  expect(readdirSync(join(dataDir, 'page-index-journal')).length).toBeGreaterThan(0);

  const second = await serve({}, dataDir);
  await until(
    'the journal’s pages to be indexed',
    async () => (await indexer(second)).indexed === PAGES.length,
    60_000,
  );
  for (const i of PAGES) {
    const similar = await second.post('/api/v1/neural/similar', { text: answered.get(i), num_results: 1 });
    expect(similar.status).toBe(200);
    expect(similar.body.similar[0]).toMatchObject({ url: `${web.url}/stone/${i}`, source: 'local_index' });
  }
  expect(readdirSync(join(dataDir, 'page-index-journal'))).toEqual([]);
}, 120_000);
