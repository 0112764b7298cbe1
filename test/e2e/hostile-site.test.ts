/**
 * Issue 28 parts 1–2: one hostile site on 127.0.0.1 — script and style tags,
 * event handlers, javascript:/data: links and autolinks, markdown in titles,
 * og: and meta fields, entity-like names with markup — run through every
 * capability that reads pages or page-derived text, over HTTP and over MCP
 * stdio (the built package, spawned by the official SDK client). Every
 * markdown an agent reads (the HTTP answer's markdown fields, answers and
 * reports, the capability's markdown, every MCP text block) passes one
 * checker: no raw tag, no unsafe link, no link text that broke out.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConfigInput } from '../../app/config.js';
import { resultsMarkdown } from '../../plugins/monitor/views.js';
import { outboundLinkPolicy } from '../../services/markdown/link-policy.js';
import { startLocalSearch, type LocalSearch } from '../sandbox/local-search.js';
import { markdownProblems } from '../sandbox/markdown-safety.js';
import { startSandboxWeb, type SandboxWeb } from '../sandbox/sandbox-web.js';
import { startQuarry, type RunningQuarry } from './harness.js';
import { spawnMcpStdio, type McpStdio } from './mcp-stdio.js';
import { until } from '../sandbox/until.js';

/** Titles as an attacker writes them: markdown that closes its link, tags, a javascript: link. */
const HOSTILE_TITLES = [
  'Heat pump efficiency](javascript:alert(1)) <img src=x onerror=alert(1)> [more',
  'Heat pumps <script>alert("t")</script> explained',
  'Heat pump costs [x](data:text/html,<script>alert(1)</script>) <javascript:alert(1)>',
];

/** Sentences about heat pumps (so answers quote them) carrying markup as text. */
const HOSTILE_SENTENCES = [
  'A heat pump moves heat from outside air into the house and its efficiency is measured by the coefficient ' +
    'of performance <script>alert(1)</script> which is usually above three.',
  'Heat pump efficiency drops in cold weather, [read the guide](javascript:alert(document.cookie)) and <img ' +
    'src=x onerror=alert(1)> says installers.',
  'Modern heat pumps reach a coefficient of performance of four <javascript:alert(1)> according to the Acme ' +
    'Heat Pump Corp. engineers.',
  'Jane Doe, chief executive of Acme <b onmouseover=alert(1)>Heat</b> Pumps Corp., said heat pump efficiency ' +
    'keeps improving <a href="javascript:alert(1)">here</a>.',
  'The heat pump principle was described by Lord Kelvin in 1852 ](javascript:alert(2)) [broken link text and ' +
    '<style>body{display:none}</style> more.',
];

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function hostilePage(title: string, index: number): string {
  const prose = HOSTILE_SENTENCES.map(
    (s) => `<p>${escapeHtml(s)} Heat pump owners report lower bills and quieter homes over the years of use.</p>`,
  ).join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<meta property="og:title" content="${escapeHtml(`[x](javascript:alert(${index})) ${title}`)}">
<meta name="description" content="${escapeHtml('<img src=x onerror=alert(1)> ' + '[desc](javascript:alert(1)) heat pump efficiency')}">
<meta property="og:description" content="${escapeHtml('<script>alert(1)</script> heat pump')}">
<meta name="author" content="${escapeHtml('<b>Mallory</b> [m](javascript:x)')}">
<style>body { background: url(javascript:alert(1)) }</style><script>alert('inline')</script></head>
<body onload="alert(1)"><main><article><h1>${escapeHtml(title)}</h1>
${prose}
<p><a href="javascript:alert(1)">a javascript link</a> <a href="data:text/html,&lt;script&gt;alert(1)&lt;/script&gt;">a data link</a>
<a href="/hostile/${(index + 1) % HOSTILE_TITLES.length}">next ](javascript:alert(3)) page</a> <img src="/x.png" alt="x](javascript:alert(1))" onerror="alert(1)">
<img src="data:image/png;base64,AAAA" alt="data image"></p>
${prose}
</article></main></body></html>`;
}

let web: SandboxWeb;
let search: LocalSearch;
let quarry: RunningQuarry;
let client: Client;
let mcp: McpStdio;
let allowedHosts: string[];
const pageUrl = (i: number) => `${web.url}/hostile/${i}`;
const TEXT = HOSTILE_SENTENCES.join(' ');

function config(): ConfigInput {
  return {
    customEngines: [search.engineConfig('local_web', ['general']), search.engineConfig('local_news', ['news'])],
    search: { defaultEngines: ['local_web'], defaultSingleEngine: 'local_web' },
    outbound: { allowHosts: [`127.0.0.1:${web.port}`, search.host] },
    engines: Object.fromEntries(
      [
        'bing_news',
        'brave_news',
        'duckduckgo_news',
        'google_news',
        'guardian',
        'hackernews',
        'tagesschau',
        'wikinews',
        'yahoo_news',
        'yahoo_finance',
      ].map((id) => [id, { enabled: false }]),
    ),
  } as ConfigInput;
}

beforeAll(async () => {
  web = await startSandboxWeb();
  HOSTILE_TITLES.forEach((title, i) => web.addPage(`/hostile/${i}`, hostilePage(title, i)));
  search = await startLocalSearch(
    HOSTILE_TITLES.map((title, i) => ({
      url: pageUrl(i),
      title,
      text: `${HOSTILE_SENTENCES[i]} heat pump efficiency`,
    })),
  );
  allowedHosts = [`127.0.0.1:${web.port}`, search.host];
  quarry = await startQuarry(web, config());
  mcp = await spawnMcpStdio(web, config(), { clientName: 'quarry-hostile-test' });
  client = mcp.client;
}, 60_000);

afterAll(async () => {
  await mcp?.close();
  await quarry?.close();
  await search?.close();
  await web?.close();
});

/** Fields of HTTP answers that are markdown for agents. */
const MARKDOWN_FIELDS = new Set([
  'markdown',
  'answer',
  'executive_summary',
  'detailed_analysis',
  'key_findings',
  'context',
]);

/** Every markdown string of a JSON answer, with where it is. */
function markdownFields(value: unknown, path = '$'): Array<[string, string]> {
  if (Array.isArray(value)) return value.flatMap((item, i) => markdownFields(item, `${path}[${i}]`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, item]): Array<[string, string]> => {
    if (MARKDOWN_FIELDS.has(key) && typeof item === 'string') return [[`${path}.${key}`, item]];
    if (MARKDOWN_FIELDS.has(key) && Array.isArray(item))
      return item.filter((s): s is string => typeof s === 'string').map((s, i) => [`${path}.${key}[${i}]`, s]);
    return markdownFields(item, `${path}.${key}`);
  });
}

function expectSafe(where: string, markdown: string): void {
  expect(markdownProblems(markdown, allowedHosts), `${where}:\n${markdown.slice(0, 3000)}`).toEqual([]);
}

interface Call {
  id: string;
  tool: string;
  method: 'GET' | 'POST';
  path: string;
  args: Record<string, unknown>;
}

const QUERY = 'heat pump efficiency';

async function overHttp(call: Call): Promise<Record<string, unknown>> {
  const query = new URLSearchParams(Object.entries(call.args).map(([k, v]) => [k, String(v)])).toString();
  const answer =
    call.method === 'GET'
      ? await quarry.get(`${call.path}${query ? `?${query}` : ''}`)
      : await quarry.post(call.path, call.args);
  expect(answer.status, `${call.id} over HTTP: ${JSON.stringify(answer.body).slice(0, 400)}`).toBe(200);
  for (const [where, markdown] of markdownFields(answer.body)) expectSafe(`${call.id} HTTP ${where}`, markdown);
  const capability = quarry.app.registry.get(call.id)!;
  if (capability.toMarkdown) expectSafe(`${call.id} markdown of the HTTP answer`, capability.toMarkdown(answer.body));
  return answer.body as Record<string, unknown>;
}

async function overMcp(call: Call): Promise<Record<string, unknown>> {
  const result = await client.callTool({ name: call.tool, arguments: call.args }, undefined, { timeout: 120_000 });
  const blocks = result.content as Array<{ type: string; text?: string }>;
  expect(result.isError, `${call.tool} over MCP: ${blocks[0]?.text?.slice(0, 400)}`).toBeFalsy();
  for (const [i, block] of blocks.entries())
    if (block.type === 'text') expectSafe(`${call.tool} MCP text block ${i}`, block.text!);
  for (const [where, markdown] of markdownFields(result.structuredContent))
    expectSafe(`${call.tool} MCP ${where}`, markdown);
  return result.structuredContent as Record<string, unknown>;
}

async function bothHosts(call: Call): Promise<{ http: Record<string, unknown>; mcp: Record<string, unknown> }> {
  const [http, mcp] = [await overHttp(call), await overMcp(call)];
  return { http, mcp };
}

describe('a hostile site through every capability, over HTTP and MCP', () => {
  it.each<Call>([
    {
      id: 'search.web',
      tool: 'search_web',
      method: 'POST',
      path: '/api/v1/search/',
      args: { query: QUERY, scrape_content: true },
    },
    {
      id: 'enhanced.search',
      tool: 'enhanced_search',
      method: 'POST',
      path: '/api/v1/enhanced/search',
      args: { query: QUERY, markdown_generation: true },
    },
    {
      id: 'enhanced.scrape',
      tool: 'enhanced_scrape',
      method: 'POST',
      path: '/api/v1/enhanced/scrape',
      args: { urls: [`${'{WEB}'}/hostile/0`], extract_links: true, extract_images: true, extract_metadata: true },
    },
    {
      id: 'agent.search',
      tool: 'agent_search',
      method: 'POST',
      path: '/api/v1/agent/search',
      args: { query: QUERY, include_answer: true, include_raw_content: 'text', max_results: 5 },
    },
    {
      id: 'agent.extract',
      tool: 'agent_extract',
      method: 'POST',
      path: '/api/v1/agent/extract',
      args: { urls: ['{WEB}/hostile/0', '{WEB}/hostile/1'], format: 'text' },
    },
    {
      id: 'agent.crawl',
      tool: 'agent_crawl',
      method: 'POST',
      path: '/api/v1/agent/crawl',
      args: { url: '{WEB}/hostile/0', max_depth: 1, limit: 3 },
    },
    {
      id: 'agent.research',
      tool: 'agent_research',
      method: 'POST',
      path: '/api/v1/agent/research',
      args: { query: QUERY, depth: 'quick', max_sources: 5 },
    },
    { id: 'rag.search', tool: 'rag_search', method: 'POST', path: '/api/v1/rag/search', args: { query: QUERY } },
    {
      id: 'verify.claim',
      tool: 'verify_claim',
      method: 'POST',
      path: '/api/v1/verify/claim',
      args: { claim: 'Heat pumps reach a coefficient of performance above three' },
    },
    {
      id: 'neural.search',
      tool: 'neural_search',
      method: 'POST',
      path: '/api/v1/neural/search',
      args: { query: QUERY },
    },
    {
      id: 'neural.similar',
      tool: 'neural_similar',
      method: 'POST',
      path: '/api/v1/neural/similar',
      args: { url: '{WEB}/hostile/1' },
    },
    {
      id: 'neural.highlights',
      tool: 'neural_highlights',
      method: 'POST',
      path: '/api/v1/neural/highlights',
      args: { query: QUERY, content: TEXT },
    },
    {
      id: 'exa.search',
      tool: 'exa_search',
      method: 'POST',
      path: '/api/v1/exa/search',
      args: { query: QUERY, contents: { text: true, highlights: true, summary: true } },
    },
    {
      id: 'exa.contents',
      tool: 'exa_contents',
      method: 'POST',
      path: '/api/v1/exa/contents',
      args: { urls: ['{WEB}/hostile/2'], text: true, summary: true },
    },
  ])(
    '$id',
    async (call) => {
      const args = JSON.parse(JSON.stringify(call.args).replaceAll('{WEB}', web.url)) as Record<string, unknown>;
      await bothHosts({ ...call, args });
    },
    180_000,
  );

  it('rag.research and rag.semantic_search', async () => {
    const built = await bothHosts({
      id: 'rag.research',
      tool: 'rag_research',
      method: 'POST',
      path: '/api/v1/rag/research',
      args: { topic: QUERY, depth: 'quick' },
    });
    for (const corpus of [built.http, built.mcp]) {
      const call = {
        id: 'rag.semantic_search',
        tool: 'rag_semantic_search',
        method: 'POST' as const,
        path: '/api/v1/rag/semantic-search',
        args: { corpus_id: corpus.corpus_id, query: QUERY, min_relevance: 0 },
      };
      await (corpus === built.http ? overHttp(call) : overMcp(call));
    }
  }, 240_000);

  it('knowledge: extract, search, people, entity and graph of names carrying markup', async () => {
    const text = `${TEXT} [Evil](javascript:alert(1)) Corp. acquired Acme Heat Pumps Corp. <img src=x onerror=alert(1)>Mallory Smith, director of Evil Corp., agreed.`;
    const extracted = await bothHosts({
      id: 'knowledge.extract',
      tool: 'knowledge_extract',
      method: 'POST',
      path: '/api/v1/knowledge/extract',
      args: { text, source_url: `${web.url}/hostile/0`, source_title: HOSTILE_TITLES[0] },
    });
    for (const call of [
      {
        id: 'knowledge.search',
        tool: 'knowledge_search',
        method: 'POST' as const,
        path: '/api/v1/knowledge/search',
        args: { query: 'Acme', include_relationships: true },
      },
      {
        id: 'knowledge.people',
        tool: 'knowledge_people',
        method: 'POST' as const,
        path: '/api/v1/knowledge/people',
        args: { query: 'Jane Doe' },
      },
      {
        id: 'knowledge.graph',
        tool: 'knowledge_graph',
        method: 'GET' as const,
        path: '/api/v1/knowledge/graph',
        args: { limit: 50 },
      },
    ]) {
      await bothHosts(call);
    }
    const idOf = (out: Record<string, unknown>) => (out.entities as Array<{ id: string }>)[0]!.id;
    await overHttp({
      id: 'knowledge.entity',
      tool: 'knowledge_entity',
      method: 'GET',
      path: `/api/v1/knowledge/entities/${idOf(extracted.http)}`,
      args: {},
    });
    await overMcp({
      id: 'knowledge.entity',
      tool: 'knowledge_entity',
      method: 'GET',
      path: '',
      args: { entity_id: idOf(extracted.mcp) },
    });
  }, 120_000);

  it('a monitor whose search finds the hostile pages: its results over HTTP and over MCP', async () => {
    const body = {
      topic: QUERY,
      keywords: ['heat pump'],
      engines: ['local_web'],
      deep_analysis: true,
      check_interval_minutes: 1440,
    };
    const results = quarry.app.registry.get('monitor.results')!;
    const found = (out: Array<{ new_results: unknown[] }>) => out.flatMap((r) => r.new_results).length;

    const created = await quarry.post('/api/v1/monitor/topics', body);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.id as string;
    expect((await quarry.post(`/api/v1/monitor/topics/${id}/check`, {})).status).toBe(200);
    const overHttp = await until(
      'the monitor results over HTTP',
      async () => {
        const answer = await quarry.get(`/api/v1/monitor/topics/${id}/results`);
        if (found(answer.body) === 0) throw new Error(`no results yet: ${JSON.stringify(answer.body)}`);
        return answer.body;
      },
      60_000,
    );
    expect(found(overHttp)).toBe(HOSTILE_TITLES.length);
    expectSafe('monitor.results markdown of the HTTP answer', results.toMarkdown!({ results: overHttp }));

    const made = await client.callTool({ name: 'monitor_create', arguments: body });
    expect(made.isError, JSON.stringify(made.content)).toBeFalsy();
    const mcpId = (made.structuredContent as { id: string }).id;
    expect((await client.callTool({ name: 'monitor_check', arguments: { monitor_id: mcpId } })).isError).toBeFalsy();
    const overMcp = await until(
      'the monitor results over MCP',
      async () => {
        const result = await client.callTool({ name: 'monitor_results', arguments: { monitor_id: mcpId } });
        const out = result.structuredContent as { results: Array<{ new_results: unknown[] }> };
        if (result.isError || found(out.results) === 0)
          throw new Error(`no results yet: ${JSON.stringify(result.content)}`);
        return result;
      },
      60_000,
    );
    const blocks = overMcp.content as Array<{ type: string; text?: string }>;
    expect(blocks.filter((b) => b.type === 'text').length).toBeGreaterThan(0);
    for (const [i, block] of blocks.entries())
      if (block.type === 'text') expectSafe(`monitor_results MCP text block ${i}`, block.text!);
    expect(blocks.map((b) => b.text ?? '').join('\n')).toContain(`](${pageUrl(0)})`);
  }, 180_000);

  it('monitor results: titles and snippets from the hostile pages cannot leave their link', () => {
    const markdown = resultsMarkdown(
      [
        {
          id: 'res_1',
          monitor_id: 'mon_1',
          timestamp: '2026-01-01T00:00:00.000Z',
          baseline: false,
          analysis: `2 new results: ${HOSTILE_TITLES[0]}; ${HOSTILE_TITLES[2]}`,
          analysis_method: 'summary',
          model_used: null,
          new_results: HOSTILE_TITLES.map((title, i) => ({
            title,
            url: i === 2 ? 'javascript:alert(1)' : pageUrl(i),
            snippet: HOSTILE_SENTENCES[i]!,
            source: 'web',
            published_date: null,
          })),
        },
      ] as unknown as Parameters<typeof resultsMarkdown>[0],
      outboundLinkPolicy({ allowPrivateNetwork: false, allowHosts: allowedHosts }),
    );
    expectSafe('monitor_results', markdown);
    expect(markdown).toContain(`](${pageUrl(0)})`);
  });
});

describe('the graph page', () => {
  it('is served with a Content-Security-Policy that allows only its own scripts and API', async () => {
    const response = await fetch(`${quarry.url}/graph`, {
      headers: { authorization: `Basic ${Buffer.from(`x:test-key-0123456789`).toString('base64')}` },
    });
    expect(response.status).toBe(200);
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });
});
