/**
 * The agent and RAG tools over MCP stdio (the built package, spawned by the
 * official SDK client): the tools are listed, answers carry structuredContent
 * (the HTTP JSON) and a markdown text that shows the answer with its
 * citations, research sends progress notifications per step and crawl one
 * per page, and a client's cancellation stops the work.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEAT_PUMP_PAGES, renderResearchPage } from '../sandbox/research-pages.js';
import { startQuarry, type RunningQuarry } from './harness.js';
import { spawnMcpStdio, type McpStdio } from './mcp-stdio.js';
import { recordProgress } from './mcp-progress.js';
import { startResearchWeb, type ResearchWeb } from './research-web.js';
import { until } from '../sandbox/until.js';

let site: ResearchWeb;
let quarry: RunningQuarry;
let mcp: McpStdio;
let client: Client;

beforeAll(async () => {
  site = await startResearchWeb();
  quarry = await startQuarry(site.web, site.config());
  mcp = await spawnMcpStdio(site.web, site.config());
  client = mcp.client;
}, 60_000);

afterAll(async () => {
  await mcp?.close();
  await quarry?.close();
  await site?.close();
});

const text = (result: Record<string, unknown>) => (result.content as Array<{ type: string; text: string }>)[0]!.text;

describe('agent and RAG tools over MCP', () => {
  it('lists every agent and RAG tool with input and output schemas', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'agent_search',
        'agent_extract',
        'agent_crawl',
        'agent_crawl_status',
        'agent_map',
        'agent_map_status',
        'agent_research',
        'agent_research_status',
        'rag_search',
        'rag_research',
        'rag_research_status',
        'rag_semantic_search',
        'rag_images',
        'rag_corpora_list',
        'rag_corpus_get',
        'rag_corpus_delete',
        'rag_corpus_add',
        'rag_corpus_resume',
      ]),
    );
    const search = tools.find((t) => t.name === 'agent_search')!;
    expect((search.inputSchema.properties as any).max_results).toMatchObject({ minimum: 1, maximum: 20 });
    expect(search.outputSchema?.type).toBe('object');
  });

  it('agent_search: the same JSON as HTTP in structuredContent, and markdown showing the answer with its citations', async () => {
    const args = { query: 'who built the first heat pump system', include_answer: true, max_results: 4 };
    const http = await quarry.post('/api/v1/agent/search', args);
    const result = await client.callTool({ name: 'agent_search', arguments: args });
    expect(result.isError).toBeFalsy();
    const structured = result.structuredContent as any;
    const comparable = (body: any) => ({ ...body, request_id: undefined, response_time: undefined });
    expect(comparable(structured)).toEqual(comparable(http.body));
    const markdown = text(result);
    expect(markdown).toContain(`**Answer** (extractive): ${structured.answer}`);
    expect(markdown).toContain(`[1] [${structured.results[0].title}](${structured.results[0].url})`);
  });

  it('agent_research: progress notifications per step, and a report with its sources', async () => {
    const recorder = recordProgress(client);
    const result = await client
      .callTool(
        { name: 'agent_research', arguments: { query: 'heat pump', depth: 'deep', max_sources: 5 } },
        undefined,
        { onprogress: recorder.onprogress, timeout: 120_000 },
      )
      .finally(recorder.stop);
    const progress = recorder.seen;
    expect(result.isError).toBeFalsy();
    const messages = progress.map((p) => p.message ?? '');
    expect(messages[0]).toMatch(/planning/);
    expect(messages.some((m) => /round 1: searching/.test(m))).toBe(true);
    expect(messages.some((m) => /engine local_web answered/.test(m))).toBe(true);
    expect(messages.some((m) => /writing the report/.test(m))).toBe(true);
    const values = progress.map((p) => p.progress);
    expect(values).toEqual([...values].sort((a, b) => a - b));
    const markdown = text(result);
    expect(markdown).toContain('## Executive summary');
    expect(markdown).toContain('## Sources');
    expect(markdown).toMatch(/\[1\] \[/);
  }, 150_000);

  it('rag_research: a progress notification for every query', async () => {
    const recorder = recordProgress(client);
    const result = await client
      .callTool(
        {
          name: 'rag_research',
          arguments: { topic: 'heat pump', depth: 'quick', categories: ['history', 'technical'] },
        },
        undefined,
        { onprogress: recorder.onprogress, timeout: 120_000 },
      )
      .finally(recorder.stop);
    const progress = recorder.seen.map((p) => p.message ?? '');
    expect(result.isError).toBeFalsy();
    const structured = result.structuredContent as any;
    for (const query of structured.queries_executed) expect(progress.some((m) => m.includes(`"${query}"`))).toBe(true);
    expect(text(result)).toContain(structured.corpus_id);
    const found = await client.callTool({
      name: 'rag_semantic_search',
      arguments: { corpus_id: structured.corpus_id, query: 'Kelvin heat pump principle', min_relevance: 0 },
    });
    expect((found.structuredContent as any).results[0].text).toContain('Kelvin');
  }, 150_000);

  let laterCalls = 0;
  /** A later call through the same server that reads a page of the sandbox and answers. */
  const roundTrip = async (): Promise<void> => {
    const path = `/after-cancel/${++laterCalls}`;
    site.web.addPage(
      path,
      `<!doctype html><html><head><title>After the cancel</title></head><body><main><h1>After the cancel</h1><p>A page read after a cancelled call, about heat pumps moving heat.</p></main></body></html>`,
    );
    const later = await client.callTool({ name: 'agent_extract', arguments: { urls: [site.url(path)] } });
    expect(later.isError).toBeFalsy();
    expect((later.structuredContent as any).failed_urls).toEqual([]);
  };

  /**
   * After a cancel: a round trip through the server (so reads it sent before the cancel have
   * arrived), then the reads in flight answered or dropped, then another round trip. Work that was
   * not stopped would have fetched its next page as soon as a read settled, before that round trip
   * ends. Returns the reads counted once the ones in flight settled.
   */
  const settledReads = async (openReads: () => number, reads: () => number): Promise<number> => {
    await roundTrip();
    await until('the reads in flight to settle', async () => openReads() === 0, 20_000);
    const settled = reads();
    await roundTrip();
    return settled;
  };

  it('cancelling a research call stops its work', async () => {
    // Slow pages, so the research is still reading when it is cancelled.
    for (const page of HEAT_PUMP_PAGES) site.web.addPage(page.path, renderResearchPage(page), { delayMs: 1500 });
    try {
      const controller = new AbortController();
      const call = client.callTool(
        { name: 'agent_research', arguments: { query: 'heat pump', depth: 'comprehensive', max_sources: 8 } },
        undefined,
        {
          signal: controller.signal,
          onprogress: (p) => {
            if (/reading/.test(p.message ?? '')) controller.abort();
          },
          timeout: 120_000,
        },
      );
      await expect(call).rejects.toThrow();
      const paths = new Set(HEAT_PUMP_PAGES.map((page) => page.path));
      const pageReads = () => site.web.requestLog().filter((r) => paths.has(r.path)).length;
      const settled = await settledReads(
        () => HEAT_PUMP_PAGES.reduce((open, page) => open + site.web.openRequests(page.path), 0),
        pageReads,
      );
      // Nothing was fetched once the reads in flight at the cancel settled: left alone, the
      // research would read 8 pages at 6 at a time, 1.5 s each, then start its next round.
      expect(pageReads()).toBe(settled);
    } finally {
      for (const page of HEAT_PUMP_PAGES) site.web.addPage(page.path, renderResearchPage(page));
    }
  }, 60_000);

  /** A chain of linked pages under prefix: each links to the next; returns the first page's URL. */
  const addChain = (prefix: string, length: number, delayMs = 0): string => {
    for (let i = 0; i < length; i++) {
      const body = `<!doctype html><html><head><title>Chain page ${i}</title></head><body><main><h1>Chain page ${i}</h1><p>Page ${i} of a chain of linked pages about heat pumps and how they move heat.</p>${i + 1 < length ? `<a href="${prefix}/${i + 1}">next</a>` : ''}</main></body></html>`;
      site.web.addPage(`${prefix}/${i}`, body, { delayMs });
    }
    return site.url(`${prefix}/0`);
  };

  it('agent_crawl and agent_map: a progress notification per page read, structuredContent and markdown', async () => {
    const start = addChain('/mcp-chain', 4);
    const recorder = recordProgress(client);
    const result = await client
      .callTool({ name: 'agent_crawl', arguments: { url: start, max_depth: 3 } }, undefined, {
        onprogress: recorder.onprogress,
        timeout: 60_000,
      })
      .finally(recorder.stop);
    const progress = recorder.seen;
    expect(result.isError).toBeFalsy();
    const structured = result.structuredContent as any;
    expect(structured.results.map((r: { url: string; depth: number }) => [r.url, r.depth])).toEqual(
      [0, 1, 2, 3].map((i) => [site.url(`/mcp-chain/${i}`), i]),
    );
    expect(progress.map((p) => p.progress)).toEqual([1, 2, 3, 4]);
    expect(progress[0]!.total).toBe(50);
    expect(progress[3]!.message).toBe('4 pages read, 4 URLs found');
    expect(text(result)).toContain(`# Crawl of ${start}: 4 pages`);
    expect(text(result)).toContain('Page 3 of a chain');

    const map = await client.callTool({ name: 'agent_map', arguments: { url: start, max_depth: 2 } });
    expect((map.structuredContent as any).results).toEqual([0, 1, 2].map((i) => site.url(`/mcp-chain/${i}`)));
    expect(text(map)).toContain(`- ${site.url('/mcp-chain/2')}`);
  }, 90_000);

  it('cancelling a crawl stops its work', async () => {
    // A long chain of slow pages, so the crawl is still following links when it is cancelled.
    const start = addChain('/slow-chain', 12, 1000);
    const chainRequests = () => site.web.requestLog().filter((r) => r.path.startsWith('/slow-chain/')).length;
    const controller = new AbortController();
    const call = client.callTool(
      { name: 'agent_crawl', arguments: { url: start, max_depth: 5, limit: 20 } },
      undefined,
      {
        signal: controller.signal,
        onprogress: () => controller.abort(),
        timeout: 120_000,
      },
    );
    await expect(call).rejects.toThrow();
    const settled = await settledReads(() => site.web.openRequests('/slow-chain/'), chainRequests);
    // Left alone, the crawl would fetch the next page of the chain as soon as one is read.
    expect(chainRequests()).toBe(settled);
    expect(settled).toBeLessThan(6);
  }, 60_000);

  it('returns actionable errors for bad input', async () => {
    const bad = await client.callTool({
      name: 'rag_semantic_search',
      arguments: { corpus_id: 'corpus_00000000000000000000', query: 'x' },
    });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toContain('NOT_FOUND');
    expect(text(bad)).toContain('corpus_id');
    const invalid = await client.callTool({ name: 'agent_search', arguments: { query: 'x', max_results: 0 } });
    expect(invalid.isError).toBe(true);
    expect(text(invalid)).toContain('max_results');
  });
});
