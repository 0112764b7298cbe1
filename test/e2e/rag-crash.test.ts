/**
 * A corpus build killed with SIGKILL: the built server runs in a child
 * process (`quarry serve`), a research build starts against slow pages, the
 * child is killed mid-build, and a new Quarry on the same data directory finds
 * the corpus marked incomplete (never complete with half its pages, never
 * half-written without saying so), resumes it to complete, and — for a build
 * started as a job — runs the job again on start, finishing the same corpus.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEAT_PUMP_PAGES, renderResearchPage } from '../sandbox/research-pages.js';
import { startQuarry } from './harness.js';
import { spawnQuarry, type QuarryProcess } from './quarry-process.js';
import { startResearchWeb, type ResearchWeb } from './research-web.js';
import { until } from '../sandbox/until.js';

let site: ResearchWeb;
const dirs: string[] = [];
const children: QuarryProcess[] = [];

beforeAll(async () => {
  site = await startResearchWeb();
  // Slow pages: the build is still reading when the process is killed.
  for (const page of HEAT_PUMP_PAGES) site.web.addPage(page.path, renderResearchPage(page), { delayMs: 1500 });
}, 60_000);

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await site?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** The built `quarry serve` on the research site, its state in `dataDir`. */
async function serveInChild(dataDir: string): Promise<QuarryProcess> {
  const child = await spawnQuarry({ web: site.web, config: site.config(), dataDir });
  children.push(child);
  return child;
}

async function kill(child: QuarryProcess): Promise<NodeJS.Signals | null> {
  child.kill('SIGKILL');
  return (await child.exited).signal;
}

describe('a corpus build killed with SIGKILL', () => {
  it('is marked incomplete on the next start, and resuming completes it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'quarry-rag-crash-'));
    dirs.push(dataDir);
    const child = await serveInChild(dataDir);
    const pagesBefore = site.web.requestLog().length;
    // Synchronous build: the request is in flight when the process dies.
    void child
      .post('/api/v1/rag/research', { topic: 'heat pump', depth: 'quick', target_sources: 6 })
      .catch(() => undefined);
    const corpusId = await until(
      'the build to start',
      async () => {
        const list = (await child.get('/api/v1/rag/corpora')).body as {
          corpora: Array<{ corpus_id: string; status: string }>;
        };
        return list.corpora.find((c) => c.status === 'building')?.corpus_id;
      },
      60_000,
    );
    await until(
      'the build to read pages',
      async () =>
        site.web
          .requestLog()
          .slice(pagesBefore)
          .some((r) => r.path.startsWith('/heat-pumps/')),
      60_000,
    );
    expect(await kill(child)).toBe('SIGKILL');

    const quarry = await startQuarry(site.web, site.config(), { dataDir });
    try {
      const record = await quarry.get(`/api/v1/rag/corpora/${corpusId}`);
      expect(record.status).toBe(200);
      expect(record.body.status).toBe('incomplete');
      expect(record.body.status_reason).toMatch(/interrupted/);
      expect(record.body.queries_executed).toEqual([]);
      expect(record.body.counts).toEqual({ sources: 0, chunks: 0 });
      // Searching an incomplete corpus is allowed and says so.
      const early = await quarry.post('/api/v1/rag/semantic-search', { corpus_id: corpusId, query: 'heat pump' });
      expect(early.body).toMatchObject({ corpus_status: 'incomplete', results: [] });

      const resumed = await quarry.post('/api/v1/rag/corpora/resume', { corpus_id: corpusId });
      expect(resumed.status).toBe(200);
      expect(resumed.body).toMatchObject({ corpus_id: corpusId, status: 'complete' });
      expect(resumed.body.sources.length).toBeGreaterThan(0);
      expect(resumed.body.queries_executed.length).toBe(3);
      const after = await quarry.post('/api/v1/rag/semantic-search', {
        corpus_id: corpusId,
        query: 'who built the first heat pump',
        min_relevance: 0,
      });
      expect(after.body.corpus_status).toBe('complete');
      expect(after.body.results[0].text).toContain('Rittinger');
      // One corpus, not two.
      expect((await quarry.get('/api/v1/rag/corpora')).body.total).toBe(1);
    } finally {
      await quarry.close();
    }
  }, 180_000);

  it('started as a job, it is finished by the job run again on the next start', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'quarry-rag-crash-job-'));
    dirs.push(dataDir);
    const child = await serveInChild(dataDir);
    const pagesBefore = site.web.requestLog().length;
    const accepted = (
      await child.post('/api/v1/rag/research', { topic: 'heat pump', depth: 'quick', target_sources: 6, async: true })
    ).body as {
      job_id: string;
      corpus_id: string;
    };
    await until(
      'the build to read pages',
      async () =>
        site.web
          .requestLog()
          .slice(pagesBefore)
          .some((r) => r.path.startsWith('/heat-pumps/')),
      60_000,
    );
    expect(await kill(child)).toBe('SIGKILL');

    const quarry = await startQuarry(site.web, site.config(), { dataDir });
    try {
      const job = await until(
        'the job to finish',
        async () => {
          const status = (await quarry.get(`/api/v1/rag/research/jobs/${accepted.job_id}`)).body;
          return (status.status === 'completed' || status.status === 'failed') && status;
        },
        120_000,
      );
      expect(job.status).toBe('completed');
      expect(job.result.corpus_id).toBe(accepted.corpus_id);
      expect(job.result.status).toBe('complete');
      const list = (await quarry.get('/api/v1/rag/corpora')).body;
      expect(list.corpora.map((c: any) => [c.corpus_id, c.status])).toEqual([[accepted.corpus_id, 'complete']]);
    } finally {
      await quarry.close();
    }
  }, 180_000);
});
