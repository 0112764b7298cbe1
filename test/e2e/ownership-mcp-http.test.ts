/**
 * Ownership between API keys over MCP on Streamable HTTP (README "Keys and
 * ownership"): with the 2.x SDK client sending each key's header to /mcp, key
 * B's reads, changes and deletes of key A's monitor, corpus, graph entity and
 * build job answer the very tool error a missing id gets, and B's list tools
 * show none of A's resources.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startResearchWeb, type ResearchWeb } from './research-web.js';
import { startQuarry, type RunningQuarry } from './harness.js';
import { until } from '../sandbox/until.js';

const KEY_A = 'key-alpha-0123456789';
const KEY_B = 'key-bravo-0123456789';

const MISSING = {
  monitor: 'mon_000000000000000000000000',
  corpus: 'corpus_0000000000000000',
  entity: 'ent_0000000000000000',
  job: 'job_00000000000000000000',
};

const NEWS =
  'Microsoft Corp. said on Tuesday that its chief executive, Satya Nadella, will visit London next month. ' +
  'Nadella told reporters that Microsoft (NASDAQ: MSFT) partnered with OpenAI last year.';

let site: ResearchWeb;
let quarry: RunningQuarry;
let a: Client;
let b: Client;

type ToolResult = { isError?: boolean; content: Array<{ type: string; text?: string }>; structuredContent?: any };

async function connect(key: string): Promise<Client> {
  const client = new Client(
    { name: 'ownership-http-test', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${quarry.url}/mcp`), { requestInit: { headers: { 'x-api-key': key } } }),
  );
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<ToolResult> {
  return (await client.callTool({ name, arguments: args })) as ToolResult;
}

async function ok(client: Client, name: string, args: Record<string, unknown>): Promise<any> {
  const result = await call(client, name, args);
  expect(result.isError, `${name}: ${JSON.stringify(result.content)}`).toBeFalsy();
  return result.structuredContent;
}

function text(result: ToolResult): string {
  return result.content.map((c) => c.text ?? '').join('\n');
}

/** B's call on A's id answers exactly as the same call on an id that does not exist. */
async function expectLikeMissing(
  name: string,
  args: Record<string, unknown>,
  idField: string,
  missingId: string,
): Promise<void> {
  const foreign = await call(b, name, args);
  const missing = await call(b, name, { ...args, [idField]: missingId });
  expect(foreign.isError, `B ${name}: ${text(foreign)}`).toBe(true);
  expect(text(foreign), `B ${name}`).toContain('NOT_FOUND');
  expect(text(foreign).replaceAll(String(args[idField]), '<id>'), `B ${name} differs from a missing id`).toBe(
    text(missing).replaceAll(missingId, '<id>'),
  );
  expect(foreign.structuredContent, `B ${name}`).toEqual(missing.structuredContent);
}

beforeAll(async () => {
  site = await startResearchWeb();
  quarry = await startQuarry(site.web, site.config(), { apiKeys: [KEY_A, KEY_B] });
  a = await connect(KEY_A);
  b = await connect(KEY_B);
}, 60_000);

afterAll(async () => {
  await a?.close();
  await b?.close();
  await quarry?.close();
  await site?.close();
});

describe('ownership over MCP on HTTP', () => {
  it("B's monitor tools on A's monitor answer as for a missing id, and monitor_list hides it", async () => {
    const { id } = await ok(a, 'monitor_create', {
      topic: 'heat pump',
      keywords: ['heat'],
      check_interval_minutes: 60,
    });
    for (const tool of [
      'monitor_get',
      'monitor_results',
      'monitor_pause',
      'monitor_resume',
      'monitor_check',
      'monitor_delete',
    ]) {
      await expectLikeMissing(tool, { monitor_id: id }, 'monitor_id', MISSING.monitor);
    }
    expect((await ok(b, 'monitor_list', {})).monitors).toEqual([]);
    expect((await ok(a, 'monitor_list', {})).monitors.map((m: any) => m.id)).toEqual([id]);
    expect((await ok(a, 'monitor_get', { monitor_id: id })).status).toBe('active');
    await ok(a, 'monitor_delete', { monitor_id: id });
  });

  it("B's RAG tools on A's build job and corpus answer as for a missing id, and rag_corpora_list hides it", async () => {
    const accepted = await ok(a, 'rag_research', { topic: 'heat pump', depth: 'quick', async: true });
    const { job_id: jobId, corpus_id: corpusId } = accepted;
    expect(jobId).toMatch(/^job_/);
    await expectLikeMissing('rag_research_status', { job_id: jobId }, 'job_id', MISSING.job);

    const status = await until(
      'the corpus build job to finish',
      async () => {
        const answer = await ok(a, 'rag_research_status', { job_id: jobId });
        return (answer.status === 'completed' || answer.status === 'failed') && answer;
      },
      60_000,
    );
    expect(status.status, JSON.stringify(status)).toBe('completed');
    await expectLikeMissing('rag_research_status', { job_id: jobId }, 'job_id', MISSING.job);

    await expectLikeMissing('rag_corpus_get', { corpus_id: corpusId }, 'corpus_id', MISSING.corpus);
    await expectLikeMissing(
      'rag_semantic_search',
      { corpus_id: corpusId, query: 'compressor' },
      'corpus_id',
      MISSING.corpus,
    );
    await expectLikeMissing(
      'rag_corpus_add',
      { corpus_id: corpusId, texts: [{ text: 'Planted by B: heat pumps run on moonlight.' }] },
      'corpus_id',
      MISSING.corpus,
    );
    await expectLikeMissing('rag_corpus_resume', { corpus_id: corpusId }, 'corpus_id', MISSING.corpus);
    await expectLikeMissing('rag_corpus_delete', { corpus_id: corpusId }, 'corpus_id', MISSING.corpus);
    expect(await ok(b, 'rag_corpora_list', {})).toMatchObject({ corpora: [], total: 0 });

    expect((await ok(a, 'rag_corpora_list', {})).corpora.map((c: any) => c.corpus_id)).toEqual([corpusId]);
    expect(JSON.stringify(await ok(a, 'rag_corpus_get', { corpus_id: corpusId }))).not.toContain('moonlight');
    await ok(a, 'rag_corpus_delete', { corpus_id: corpusId });
  }, 90_000);

  it("B's knowledge tools neither find, read nor delete A's entity", async () => {
    const extracted = await ok(a, 'knowledge_extract', { text: NEWS });
    const nadella = extracted.entities.find((e: any) => e.name === 'Satya Nadella');
    expect(nadella).toBeDefined();
    await expectLikeMissing('knowledge_entity', { entity_id: nadella.id }, 'entity_id', MISSING.entity);
    await expectLikeMissing('knowledge_delete_entity', { entity_id: nadella.id }, 'entity_id', MISSING.entity);
    expect((await ok(b, 'knowledge_search', { query: 'Satya Nadella' })).entities).toEqual([]);
    expect((await ok(b, 'knowledge_people', { query: 'Nadella' })).people).toEqual([]);
    expect((await ok(b, 'knowledge_graph', {})).nodes).toEqual([]);
    expect((await ok(a, 'knowledge_entity', { entity_id: nadella.id })).entity.source_count).toBe(1);
    await ok(a, 'knowledge_delete_entity', { entity_id: nadella.id });
  });
});
