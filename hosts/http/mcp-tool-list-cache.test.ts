import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { ToolListCache } from './mcp-tool-list-cache.js';

const RESULT = {
  tools: [{ name: 'search_web', description: 'Searches the web. '.repeat(200), inputSchema: { type: 'object' } }],
  ttlMs: 300_000,
};
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

function listRequest(body: Record<string, unknown>, headers: Record<string, string> = {}): FastifyRequest {
  return {
    method: 'POST',
    headers: { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list', ...headers },
    body,
  } as unknown as FastifyRequest;
}

function filledCache(): ToolListCache {
  const cache = new ToolListCache();
  cache.remember('application/json', JSON.stringify({ jsonrpc: '2.0', id: 0, result: RESULT }));
  return cache;
}

describe('the tools/list cache', () => {
  it('answers the whole answer with the request id, for any id', () => {
    const cache = filledCache();
    for (const id of [1, 0, 'a"bc', 'x'.repeat(5000), 123456789]) {
      expect(JSON.parse(cache.answer(id)!.toString())).toEqual({ jsonrpc: '2.0', id, result: RESULT });
    }
  });

  it('has nothing before the SDK has answered once', () => {
    expect(new ToolListCache().answer(1)).toBeUndefined();
  });

  it('takes only plain modern tools/list requests; anything else goes to the checks and the SDK', () => {
    const cache = new ToolListCache();
    expect(cache.requestId(listRequest({ jsonrpc: '2.0', id: 3, method: 'tools/list', params: { _meta: META } }))).toBe(
      3,
    );
    const refused: Array<Record<string, unknown>> = [
      { jsonrpc: '1.0', id: 3, method: 'tools/list', params: { _meta: META } },
      { jsonrpc: '2.0', id: null, method: 'tools/list', params: { _meta: META } },
      { jsonrpc: '2.0', id: 3, method: 'tools/list', params: { _meta: META, cursor: 'x' } },
      { jsonrpc: '2.0', id: 3, method: 'tools/list', params: { _meta: META }, extra: 1 },
      {
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/list',
        params: { _meta: { ...META, 'io.modelcontextprotocol/clientCapabilities': 'none' } },
      },
      {
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/list',
        params: { _meta: { ...META, 'io.modelcontextprotocol/protocolVersion': '2025-11-25' } },
      },
      { jsonrpc: '2.0', id: 3, method: 'tools/list', params: [] },
    ];
    for (const body of refused) expect(cache.requestId(listRequest(body)), JSON.stringify(body)).toBeUndefined();
    expect(
      cache.requestId(
        listRequest(
          { jsonrpc: '2.0', id: 3, method: 'tools/list', params: { _meta: META } },
          { 'mcp-method': 'tools/call' },
        ),
      ),
    ).toBeUndefined();
  });
});
