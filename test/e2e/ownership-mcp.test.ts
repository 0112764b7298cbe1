/**
 * The stdio MCP host as a principal (docs/http-api.md "Keys and ownership"): the built
 * package spawned by the official SDK client acts as `local`, an admin — it
 * lists a monitor made before ownership existed beside the one it creates —
 * and an unknown tool is the JSON-RPC error -32602 the MCP specification asks
 * for, not a tool result.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConfigInput } from '../../app/config.js';
import { silentLogger } from '../../core/logger.js';
import { startSandboxWeb, type SandboxWeb } from '../sandbox/sandbox-web.js';
import { startQuarry } from './harness.js';
import { spawnMcpStdio, type McpStdio } from './mcp-stdio.js';

/** Both starts below share one store; no vector index, which these tests do not read. */
const CONFIG: ConfigInput = { vectorIndex: { enabled: false } };

let web: SandboxWeb;
let dataDir: string;
let legacyId: string;

beforeAll(async () => {
  web = await startSandboxWeb();
  dataDir = mkdtempSync(join(tmpdir(), 'quarry-mcp-owner-'));
  const quarry = await startQuarry(web, CONFIG, { dataDir });
  try {
    const created = (await quarry.app.registry.invoke(
      'monitor.create',
      { topic: 'legacy topic', keywords: ['legacy'], check_interval_minutes: 1440 },
      {
        signal: new AbortController().signal,
        logger: silentLogger(),
        progress: () => undefined,
        host: 'cli',
      },
    )) as { id: string };
    legacyId = created.id;
  } finally {
    await quarry.close();
  }
}, 60_000);

afterAll(async () => {
  await web?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('MCP over stdio as the local principal', () => {
  // One server for both tests: each start of the package costs seconds.
  let mcp: McpStdio;
  let client: Client;
  beforeAll(async () => {
    mcp = await spawnMcpStdio(web, CONFIG, { dataDir, clientName: 'ownership-test' });
    client = mcp.client;
  }, 60_000);
  afterAll(async () => {
    await mcp?.close();
  });

  it('is an admin: it sees the monitor of no one beside the one it creates, and may delete it', async () => {
    const created = await client.callTool({
      name: 'monitor_create',
      arguments: { topic: 'local topic', keywords: ['local'], check_interval_minutes: 1440 },
    });
    expect(created.isError, JSON.stringify(created.content)).toBeFalsy();
    const mine = (created.structuredContent as { id: string }).id;
    const listed = await client.callTool({ name: 'monitor_list', arguments: {} });
    const ids = (listed.structuredContent as { monitors: Array<{ id: string }> }).monitors.map((m) => m.id);
    expect(legacyId).toMatch(/^mon_/);
    expect(ids.sort()).toEqual([legacyId, mine].sort());
    const got = await client.callTool({ name: 'monitor_get', arguments: { monitor_id: legacyId } });
    expect(got.isError, JSON.stringify(got.content)).toBeFalsy();
    expect(
      (await client.callTool({ name: 'monitor_delete', arguments: { monitor_id: legacyId } })).isError,
    ).toBeFalsy();
  }, 60_000);

  it('answers an unknown tool with JSON-RPC error -32602, not an isError result', async () => {
    const error = await client.callTool({ name: 'no_such_tool', arguments: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32602);
    expect((error as McpError).message).toContain('no_such_tool');
  }, 60_000);
});
