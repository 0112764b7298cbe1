/**
 * firecrawl-mcp (the official Firecrawl MCP server, over stdio) pointed at Quarry's Firecrawl mount:
 * FIRECRAWL_API_URL and FIRECRAWL_API_KEY as its README tells self-hosted users, and its scrape, map
 * and search tools answered from a local site and local engines — the way an agent that already
 * uses Firecrawl's MCP server gets Quarry by changing one URL. (No other Firecrawl is reachable
 * here: every page and result below could only have come through Quarry.)
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sitePagePath } from '../sandbox/firecrawl-site.js';
import type { SandboxWeb } from '../sandbox/sandbox-web.js';
import { startFirecrawlWeb, type FirecrawlWeb } from './firecrawl-web.js';
import { TEST_KEY, type RunningQuarry } from './harness.js';

const require = createRequire(import.meta.url);
const SERVER = join(dirname(require.resolve('firecrawl-mcp/package.json')), 'dist', 'index.js');

let site: FirecrawlWeb;
let web: SandboxWeb;
let quarry: RunningQuarry;
let client: Client;

beforeAll(async () => {
  site = await startFirecrawlWeb({ pages: 4, privatePages: 1, listed: [1, 2] });
  ({ web, quarry } = site);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [SERVER],
    env: {
      PATH: process.env.PATH ?? '',
      FIRECRAWL_API_URL: `${quarry.url}/firecrawl`,
      FIRECRAWL_API_KEY: TEST_KEY,
    },
    stderr: 'pipe',
  });
  client = new Client({ name: 'quarry-firecrawl-mcp-test', version: '1.0.0' });
  await client.connect(transport);
}, 60_000);

afterAll(async () => {
  await client?.close();
  await site?.close();
});

/** A tool's answer: firecrawl-mcp puts the API's JSON in the first text item. */
async function call(name: string, args: Record<string, unknown>): Promise<any> {
  const result = await client.callTool({ name, arguments: args }, undefined, { timeout: 60_000 });
  const text = (result.content as Array<{ type: string; text?: string }>).map((c) => c.text ?? '').join('\n');
  expect(result.isError, text.slice(0, 400)).toBeFalsy();
  return result.structuredContent ?? JSON.parse(text);
}

describe('firecrawl-mcp over stdio, pointed at Quarry', () => {
  it('lists its scrape, map and search tools', async () => {
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['firecrawl_scrape', 'firecrawl_map', 'firecrawl_search']));
  });

  it('scrapes a page as markdown through /firecrawl/v2/scrape', async () => {
    const url = `${web.url}${sitePagePath(1)}`;
    const document = await call('firecrawl_scrape', { url, formats: ['markdown'] });
    expect(document.markdown).toContain('diamond wire');
    expect(document.metadata).toMatchObject({ sourceURL: url, statusCode: 200 });
  });

  it('maps the site through /firecrawl/v2/map, leaving out what robots.txt disallows', async () => {
    const answer = await call('firecrawl_map', { url: `${web.url}/fc/` });
    const links = (answer.links as Array<string | { url: string }>).map((l) => (typeof l === 'string' ? l : l.url));
    expect(links).toEqual(expect.arrayContaining([`${web.url}${sitePagePath(1)}`, `${web.url}${sitePagePath(2)}`]));
    expect(links.some((l) => l.includes('/fc/private/'))).toBe(false);
  });

  it('searches the local engine through /firecrawl/v2/search', async () => {
    const answer = await call('firecrawl_search', {
      query: 'diamond wire quarry',
      limit: 2,
      sources: [{ type: 'web' }],
    });
    const web_ = (answer.web ?? answer.data?.web ?? answer) as Array<{ url: string; title: string }>;
    expect(web_.map((r) => r.url)).toEqual(expect.arrayContaining([`${web.url}${sitePagePath(1)}`]));
  });
});
