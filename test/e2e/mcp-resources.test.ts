/**
 * MCP resources (docs/mcp.md "Resources"): a corpus, a monitor's latest results and
 * a graph entity, read as context with the official 2.x SDK client — over
 * Streamable HTTP, where each key lists and reads only its own, and over stdio,
 * where the local host (an admin) reads what it made.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../sandbox/until.js';
import { startQuarry, type RunningQuarry } from './harness.js';
import { mcpStdioCommand, type McpStdioCommand } from './mcp-stdio.js';
import { startResearchWeb, type ResearchWeb } from './research-web.js';

const KEY_A = 'key-alpha-0123456789';
const KEY_B = 'key-bravo-0123456789';
const NEWS =
  'Microsoft Corp. said on Tuesday that its chief executive, Satya Nadella, will visit London next month. ' +
  'Nadella told reporters that Microsoft (NASDAQ: MSFT) partnered with OpenAI last year.';
const TEMPLATES = [
  'quarry://corpora/{corpus_id}',
  'quarry://knowledge/entities/{entity_id}',
  'quarry://monitors/{monitor_id}/results',
];

let site: ResearchWeb;
let quarry: RunningQuarry;
let a: Client;
let b: Client;
/** A's resources, made through A's tools. */
let corpusUri: string;
let resultsUri: string;
let entityUri: string;

async function connect(key: string): Promise<Client> {
  const client = new Client(
    { name: 'resources-test', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${quarry.url}/mcp`), { requestInit: { headers: { 'x-api-key': key } } }),
  );
  return client;
}

async function ok(client: Client, name: string, args: Record<string, unknown>): Promise<any> {
  const result = await client.callTool({ name, arguments: args });
  expect(result.isError, `${name}: ${JSON.stringify(result.content)}`).toBeFalsy();
  return result.structuredContent;
}

/** The markdown and the JSON of a resource. */
async function read(client: Client, uri: string): Promise<{ markdown: string; json: any }> {
  const { contents } = await client.readResource({ uri });
  const byType = new Map(contents.map((c) => [c.mimeType, 'text' in c ? c.text : '']));
  expect(contents.every((c) => c.uri === uri)).toBe(true);
  return { markdown: byType.get('text/markdown')!, json: JSON.parse(byType.get('application/json')!) };
}

/** The JSON-RPC error code a read fails with. */
async function readError(client: Client, uri: string): Promise<{ code: number; message: string }> {
  try {
    await client.readResource({ uri });
  } catch (error) {
    return error as { code: number; message: string };
  }
  throw new Error(`${uri} was read`);
}

beforeAll(async () => {
  site = await startResearchWeb();
  quarry = await startQuarry(site.web, site.config(), { apiKeys: [KEY_A, KEY_B] });
  a = await connect(KEY_A);
  b = await connect(KEY_B);
  const corpus = await ok(a, 'rag_research', { topic: 'heat pump', depth: 'quick' });
  corpusUri = `quarry://corpora/${corpus.corpus_id}`;
  const monitor = await ok(a, 'monitor_create', {
    topic: 'heat pump',
    keywords: ['heat'],
    check_interval_minutes: 1440,
  });
  await ok(a, 'monitor_check', { monitor_id: monitor.id });
  await until(
    'the monitor check',
    async () => (await ok(a, 'monitor_results', { monitor_id: monitor.id })).results.length > 0,
    60_000,
  );
  resultsUri = `quarry://monitors/${monitor.id}/results`;
  const extracted = await ok(a, 'knowledge_extract', { text: NEWS });
  entityUri = `quarry://knowledge/entities/${extracted.entities.find((e: any) => e.name === 'Satya Nadella').id}`;
}, 180_000);

afterAll(async () => {
  await a?.close();
  await b?.close();
  await quarry?.close();
  await site?.close();
});

describe('MCP resources over Streamable HTTP', () => {
  it('offers the three templates', async () => {
    const { resourceTemplates } = await a.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate).sort()).toEqual(TEMPLATES);
    for (const template of resourceTemplates) expect(template.description!.length, template.name).toBeGreaterThan(20);
  });

  it("lists a key's own corpora and monitors, and none of another key's", async () => {
    const mine = (await a.listResources()).resources.map((r) => r.uri);
    expect(mine).toEqual(expect.arrayContaining([corpusUri, resultsUri]));
    expect((await a.listResources()).resources.find((r) => r.uri === corpusUri)).toMatchObject({
      title: 'heat pump',
      mimeType: 'text/markdown',
    });
    expect((await b.listResources()).resources).toEqual([]);
  });

  it('reads a corpus with its documents, as markdown and as the JSON rag_corpus_get answers', async () => {
    const { markdown, json } = await read(a, corpusUri);
    expect(json).toEqual(await ok(a, 'rag_corpus_get', { corpus_id: corpusUri.split('/').pop() }));
    expect(json.sources.length).toBeGreaterThan(0);
    expect(markdown).toContain('# Corpus corpus_');
    expect(markdown).toContain('## Documents');
    expect(markdown).toContain(json.sources[0].url);
  });

  it("reads a monitor's latest results and an entity with its relations", async () => {
    const results = await read(a, resultsUri);
    expect(results.json.results.length).toBeGreaterThan(0);
    expect(results.json.results[0].monitor_id).toBe(resultsUri.split('/')[3]);
    const entity = await read(a, entityUri);
    expect(entity.json.entity.name).toBe('Satya Nadella');
    expect(entity.markdown).toContain('Satya Nadella');
  });

  it("answers another key's resource exactly as a missing one, and a malformed URI as invalid params", async () => {
    for (const uri of [corpusUri, resultsUri, entityUri]) {
      const foreign = await readError(b, uri);
      const missing = await readError(
        b,
        uri.replace(
          /(corpus_|mon_|ent_)[0-9a-z]+/,
          (_, prefix: string) => `${prefix}${'0'.repeat(prefix === 'mon_' ? 24 : 16)}`,
        ),
      );
      expect(foreign.code, uri).toBe(-32602);
      expect(missing.code, uri).toBe(-32602);
      expect(foreign.message.replace(/(corpus_|mon_|ent_)[0-9a-z]+/g, '<id>')).toBe(
        missing.message.replace(/(corpus_|mon_|ent_)[0-9a-z]+/g, '<id>'),
      );
    }
    expect((await readError(a, 'quarry://corpora/not-an-id')).code).toBe(-32602);
    expect((await readError(a, 'quarry://elsewhere/x')).message).toContain('quarry://corpora/{corpus_id}');
  });
});

describe('MCP resources over stdio', () => {
  let command: McpStdioCommand;
  let client: Client;

  beforeAll(async () => {
    // The shared command, connected with the 2.x SDK's own stdio transport (the client under test).
    command = await mcpStdioCommand(site.web, { vectorIndex: { enabled: false } });
    client = new Client({ name: 'resources-stdio-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({ command: command.command, args: command.args, env: command.env, stderr: 'pipe' }),
    );
  }, 60_000);

  afterAll(async () => {
    await client?.close();
    command?.cleanup();
  });

  it('lists the templates and the monitors the local host made, and reads them', { timeout: 60_000 }, async () => {
    expect((await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate).sort()).toEqual(
      TEMPLATES,
    );
    const created = await client.callTool({
      name: 'monitor_create',
      arguments: { topic: 'local topic', keywords: ['local'], check_interval_minutes: 1440 },
    });
    const id = (created.structuredContent as { id: string }).id;
    const uri = `quarry://monitors/${id}/results`;
    expect((await client.listResources()).resources).toContainEqual(
      expect.objectContaining({ uri, title: 'local topic' }),
    );
    const { contents } = await client.readResource({ uri });
    expect(contents.map((c) => c.mimeType)).toEqual(['text/markdown', 'application/json']);
    expect(JSON.parse((contents[1] as { text: string }).text)).toEqual({ results: [] });
    await expect(
      client.readResource({ uri: 'quarry://knowledge/entities/ent_0000000000000000' }),
    ).rejects.toMatchObject({ code: -32602 });
  });
});
