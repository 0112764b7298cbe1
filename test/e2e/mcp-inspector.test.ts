/**
 * The MCP Inspector's CLI (a real client, not ours) against `quarry mcp` over
 * stdio: it lists every tool docs/mcp.md names and nothing else, calls one with
 * structured content back, and gets a correctable error result for bad arguments.
 * Then the same CLI with its HTTP transport against /mcp, with the key as a header.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../core/paths.js';
import { playDefaultEngines } from '../recordings.js';
import { startSandboxWeb, type SandboxWeb } from '../sandbox/sandbox-web.js';
import { startQuarry, TEST_KEY, type RunningQuarry } from './harness.js';
import { mcpStdioCommand } from './mcp-stdio.js';

const INSPECTOR = join(PACKAGE_ROOT, 'node_modules/@modelcontextprotocol/inspector/cli/build/index.js');
// `quarry mcp` as the shared helper starts it; the Inspector is the client, so it gets the command, not a connection.
const quarryMcp = await mcpStdioCommand(null);
afterAll(() => quarryMcp.cleanup());

async function inspect(...args: string[]): Promise<any> {
  return inspectTarget([quarryMcp.command, ...quarryMcp.args], ...args);
}

async function inspectTarget(target: string[], ...args: string[]): Promise<any> {
  const { stdout } = await promisify(execFile)(process.execPath, [INSPECTOR, ...target, ...args], {
    env: quarryMcp.env,
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(stdout);
}

/** The tool names docs/mcp.md lists (the paragraph from 'Tools are named'). */
function readmeTools(): string[] {
  const readme = readFileSync(join(PACKAGE_ROOT, 'docs', 'mcp.md'), 'utf8');
  const paragraph = readme.slice(readme.indexOf('Tools are named'), readme.indexOf('Every tool returns'));
  return [...paragraph.matchAll(/`([a-z]+_[a-z_]+)`/g)].map((m) => m[1]!).filter((name) => name !== 'area_action');
}

describe('the MCP Inspector CLI', () => {
  it('lists exactly the tools docs/mcp.md names, each with its input and output schema', {
    timeout: 60_000,
  }, async () => {
    const { tools } = await inspect('--method', 'tools/list');
    const names = (tools as Array<{ name: string }>).map((tool) => tool.name).sort();
    expect(names).toEqual([...new Set(readmeTools())].sort());
    for (const tool of tools) {
      expect(tool.inputSchema, tool.name).toMatchObject({ type: 'object' });
      expect(tool.outputSchema, tool.name).toMatchObject({ type: 'object' });
      expect(tool.description.length, tool.name).toBeGreaterThan(20);
    }
  });

  it('calls a tool and gets structured content and markdown', { timeout: 60_000 }, async () => {
    const text =
      'Heat pumps move heat instead of making it. They use a refrigerant loop. Their efficiency is given as ' +
      'a coefficient of performance.';
    const result = await inspect(
      '--method',
      'tools/call',
      '--tool-name',
      'enhanced_chunk_content',
      '--tool-arg',
      `text=${text}`,
      '--tool-arg',
      'max_tokens=16',
    );
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent.chunks.length).toBeGreaterThan(1);
    expect(result.structuredContent.chunks.map((chunk: { text: string }) => chunk.text)).toContain(
      'They use a refrigerant loop.',
    );
    expect(result.content[0]).toMatchObject({ type: 'text', text: expect.stringContaining('# 3 chunks') });
  });

  it('answers bad arguments with an error result naming the field, so the model can correct itself', {
    timeout: 60_000,
  }, async () => {
    const result = await inspect(
      '--method',
      'tools/call',
      '--tool-name',
      'enhanced_chunk_content',
      '--tool-arg',
      'content=misnamed',
    );
    expect(result.isError).toBe(true);
    expect(result._meta.code).toBe('INVALID_INPUT');
    expect(result.content[0].text).toContain('text');
  });
});

describe('the MCP Inspector CLI over HTTP', () => {
  let web: SandboxWeb;
  let quarry: RunningQuarry;
  const overHttp = (...args: string[]) =>
    inspectTarget([`${quarry.url}/mcp`, '--transport', 'http', '--header', `X-API-Key: ${TEST_KEY}`], ...args);

  beforeAll(async () => {
    web = await startSandboxWeb();
    playDefaultEngines(web);
    quarry = await startQuarry(web);
  }, 60_000);

  afterAll(async () => {
    await quarry?.close();
    await web?.close();
  });

  it('lists exactly the documented tools from /mcp and calls one', { timeout: 60_000 }, async () => {
    const { tools } = await overHttp('--method', 'tools/list');
    expect((tools as Array<{ name: string }>).map((tool) => tool.name).sort()).toEqual(
      [...new Set(readmeTools())].sort(),
    );
    const result = await overHttp(
      '--method',
      'tools/call',
      '--tool-name',
      'enhanced_chunk_content',
      '--tool-arg',
      'text=Heat pumps move heat instead of making it. They use a refrigerant loop. Their efficiency is ' +
        'given as a coefficient of performance.',
      '--tool-arg',
      'max_tokens=16',
    );
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent.chunks.map((chunk: { text: string }) => chunk.text)).toContain(
      'They use a refrigerant loop.',
    );
    expect(result.content[0]).toMatchObject({ type: 'text', text: expect.stringContaining('chunks') });
    const { resourceTemplates } = await overHttp('--method', 'resources/templates/list');
    expect(resourceTemplates.map((t: { uriTemplate: string }) => t.uriTemplate)).toContain(
      'quarry://corpora/{corpus_id}',
    );
  });

  it('is refused without the key', { timeout: 60_000 }, async () => {
    await expect(inspectTarget([`${quarry.url}/mcp`, '--transport', 'http'], '--method', 'tools/list')).rejects.toThrow(
      /UNAUTHORIZED.*missing API key/,
    );
  });
});
