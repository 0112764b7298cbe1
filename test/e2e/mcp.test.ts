/**
 * The MCP host end to end: the built package spawned over stdio by the
 * official SDK client, against the sandbox web. The same search through MCP
 * and HTTP gives the same results.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxWeb, type SandboxWeb } from '../sandbox/sandbox-web.js';
import { startQuarry, type RunningQuarry } from './harness.js';
import { spawnMcpStdio, type McpStdio } from './mcp-stdio.js';
import { recordProgress } from './mcp-progress.js';
import { playDefaultEngines } from '../recordings.js';

let web: SandboxWeb;
let quarry: RunningQuarry;
/** One data directory for every server this file starts. */
let dataDir: string;
/**
 * One server for the tests that need no settings of their own (each start costs seconds), logging at info for the
 * stderr test.
 */
let shared: McpStdio;

const connect = (env: Record<string, string> = {}) => spawnMcpStdio(web, {}, { dataDir, env });

beforeAll(async () => {
  web = await startSandboxWeb();
  playDefaultEngines(web);
  quarry = await startQuarry(web);
  dataDir = mkdtempSync(join(tmpdir(), 'quarry-mcp-'));
  shared = await connect({ QUARRY_LOG_LEVEL: 'info' });
});

afterAll(async () => {
  await shared?.close();
  await quarry?.close();
  await web?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('MCP over stdio', () => {
  it('lists every capability as a tool with input and output schemas', async () => {
    const { tools } = await shared.client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'search_web',
        'search_batch',
        'search_engines',
        'search_job_status',
        'enhanced_features',
        'enhanced_performance',
      ]),
    );
    for (const tool of tools) {
      expect(tool.name).toMatch(/^[a-z][a-z0-9_]{0,63}$/);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
      expect(tool.description?.length).toBeGreaterThan(20);
    }
    const search = tools.find((t) => t.name === 'search_web')!;
    expect((search.inputSchema.properties as any).max_results.maximum).toBe(100);
  });

  it('answers the same search as the HTTP API, with progress notifications', async () => {
    const body = {
      query: 'hello',
      engines: ['duckduckgo', 'bing'],
      scrape_content: false,
      cache_ttl: 0,
      max_results: 8,
    };
    const http = await quarry.post('/api/v1/search/', body);
    expect(http.status).toBe(200);
    expect(http.body.results.length).toBeGreaterThan(0);

    const recorder = recordProgress(shared.client);
    const result = await shared.client
      .callTool({ name: 'search_web', arguments: body }, undefined, { onprogress: recorder.onprogress })
      .finally(recorder.stop);
    const progress = recorder.seen.map((p) => p.progress);
    expect(result.isError).toBeFalsy();
    const structured = result.structuredContent as any;
    expect(structured.results.map((r: any) => r.url)).toEqual(http.body.results.map((r: any) => r.url));
    expect(structured.search_metadata.engines_succeeded).toEqual(http.body.search_metadata.engines_succeeded);
    const text = (result.content as Array<{ type: string; text: string }>)[0]!.text;
    expect(text).toContain('hello');
    expect(progress.length).toBeGreaterThan(0);
  });

  it('returns an actionable error result for bad input', async () => {
    const result = await shared.client.callTool({ name: 'search_web', arguments: { query: 'x', max_results: '5' } });
    expect(result.isError).toBe(true);
    const text = (result.content as Array<{ text: string }>)[0]!.text;
    expect(text).toContain('INVALID_INPUT');
    expect(text).toContain('max_results');
    const unknown = await shared.client.callTool({
      name: 'search_web',
      arguments: { query: 'x', engines: ['nosuchengine'] },
    });
    expect(unknown.isError).toBe(true);
    expect((unknown.content as Array<{ text: string }>)[0]!.text).toContain('duckduckgo');
  });

  it('exposes only the allow-listed tools', async () => {
    const limited = await connect({ QUARRY_MCP_TOOLS: 'search_web,search_engines' });
    try {
      const { tools } = await limited.client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(['search_engines', 'search_web']);
    } finally {
      await limited.close();
    }
  });

  it('keeps stdout for the protocol: logs go to stderr', async () => {
    // The shared server logs at info: everything it logged so far went to stderr and none broke the protocol.
    const result = await shared.client.callTool({ name: 'search_engines', arguments: {} });
    expect(result.isError).toBeFalsy();
    expect((result.structuredContent as any).total_engines).toBeGreaterThan(5);
    expect(shared.stderr()).toContain('quarry core ready');
  });
});
