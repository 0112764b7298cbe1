/**
 * Firecrawl's json and changeTracking formats with hostile input, through @mendable/firecrawl-js: a schema whose
 * `pattern` backtracks catastrophically on the model's answer, and a 1 MB page edited throughout between two reads.
 * The schema check and the diff run in the extraction worker pool, bounded; the server keeps answering other
 * requests (/healthz, timed from when each was due) while they run, and the answers are a clear 400 naming the
 * schema and a change status (the diff, or a warning that it was too large).
 */
import Firecrawl, { SdkError } from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConfigInput } from '../../app/config.js';
import {
  chatCompletionReply,
  startScriptedServer,
  type ScriptedServer,
} from '../../services/llm/fixtures/scripted-server.js';
import { startSandboxWeb, type SandboxWeb } from '../sandbox/sandbox-web.js';
import { probeSummary, whileProbingHealth } from './health-probe.js';
import { startQuarry, TEST_KEY, type RunningQuarry } from './harness.js';

let web: SandboxWeb;
let llm: ScriptedServer;
let quarry: RunningQuarry;
let firecrawl: Firecrawl;

beforeAll(async () => {
  web = await startSandboxWeb();
  llm = await startScriptedServer();
  quarry = await startQuarry(web, {
    llm: { fast: { provider: 'openai-compatible', baseUrl: `${llm.origin}/v1`, model: 'scripted-7b', maxRetries: 0 } },
  } as ConfigInput);
  firecrawl = new Firecrawl({ apiKey: TEST_KEY, apiUrl: `${quarry.url}/firecrawl` });
}, 60_000);

afterAll(async () => {
  await quarry?.close();
  await llm?.close();
  await web?.close();
});

const article = (body: string) =>
  `<!doctype html><html lang="en"><head><title>Quarry log</title></head><body><main><article>${body}` +
  '</article></main></body></html>';

describe('a schema whose pattern backtracks on the answer', () => {
  it('is stopped in the worker pool and answered with a 400 naming the schema; /healthz answers meanwhile', async () => {
    web.addPage('/code', article('<h1>Lot code</h1><p>The lot code is printed on every block that leaves.</p>'));
    // (a+)+$ against forty a's and a mismatch takes 2^40 steps: hours, were it run on the event loop.
    llm.script(chatCompletionReply({ code: `${'a'.repeat(40)}!` }));
    const schema = { type: 'object', properties: { code: { type: 'string', pattern: '^(a+)+$' } } };
    const report = await whileProbingHealth(quarry.url, () =>
      firecrawl
        .scrape(`${web.url}/code`, { formats: [{ type: 'json', schema }], maxAge: 0 })
        .catch((error: unknown) => error),
    );
    expect(report.worstHealthMs, probeSummary('backtracking pattern', report)).toBeLessThan(report.budgetMs);
    expect(report.probes).toBeGreaterThan(1);
    const failure = report.result as SdkError;
    expect(failure).toBeInstanceOf(SdkError);
    expect(failure.status).toBe(400);
    expect(failure.message).toMatch(/formats: json schema: checking a value against it took longer than 1000 ms/);
    expect(failure.details).toMatchObject({ quarryCode: 'INVALID_INPUT', reason: 'SCHEMA_TOO_SLOW' });
    expect(llm.received).toHaveLength(1);
  }, 60_000);
});

describe('a 1 MB page edited throughout between two reads', () => {
  const lines = (word: string) =>
    Array.from({ length: 12_000 }, (_, i) => `<p>Block ${i} of the ${word} face was cut and weighed.</p>`).join('');

  it('is diffed in the worker pool within its bounds; /healthz answers meanwhile', async () => {
    const track = () =>
      firecrawl.scrape(`${web.url}/big`, {
        formats: ['markdown', { type: 'changeTracking', modes: ['git-diff'] }],
        timeout: 60_000,
      });
    web.addPage('/big', article(lines('north')));
    expect((await track()).changeTracking).toMatchObject({ changeStatus: 'new' });
    // Every other paragraph edited: a large edit over a long text, the diff's slowest case.
    web.addPage(
      '/big',
      article(
        Array.from(
          { length: 12_000 },
          (_, i) => `<p>Block ${i} of the ${i % 2 ? 'south' : 'north'} face was cut and weighed.</p>`,
        ).join(''),
      ),
    );
    const report = await whileProbingHealth(quarry.url, track);
    expect(report.worstHealthMs, probeSummary('1 MB diff', report)).toBeLessThan(report.budgetMs);
    expect(report.probes).toBeGreaterThan(1);
    const document = report.result;
    expect(document.markdown!.length).toBeGreaterThan(500_000);
    expect(document.changeTracking).toMatchObject({ changeStatus: 'changed' });
    // Six thousand changed lines are past the diff's bound: the status, and a warning saying why there is no diff.
    expect((document.changeTracking as { diff?: unknown }).diff).toBeUndefined();
    expect(document.warning).toContain('too large to diff');
  }, 120_000);
});
