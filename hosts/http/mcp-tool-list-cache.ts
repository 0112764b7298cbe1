/**
 * tools/list over HTTP from a cache: the list (about 180 kB of schemas) is
 * the same for every caller until the configuration changes, and the SDK
 * rebuilds and re-validates it on every request. The first 2026-07-28
 * tools/list goes through the SDK as usual; its answer is kept, and later
 * ones get the same bytes with their own id. Anything unusual — another
 * revision, a cursor, extra params, a streamed answer — goes to the SDK.
 *
 * A cached answer is sent before the route's message checks: the request
 * shape that qualifies is narrower than what they accept, and the body parser
 * has already refused forbidden keys and deep nesting. The answer is plain
 * JSON: a pre-compressed gzip variant was tried and measured slower on both
 * ends (`bench:mcp-start`: 343 against 837 requests/s, the clients' gunzip
 * costing most), and clients cache the list for its ttlMs anyway.
 */
import { CLIENT_CAPABILITIES_META_KEY, PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/server';
import type { FastifyRequest } from 'fastify';
import { MODERN_REVISION } from '../mcp/revision.js';

const ENVELOPE_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);

const CLOSE = Buffer.from('}');

export class ToolListCache {
  /** The result's bytes, encoded once: the answer is these between a per-request head and a brace. */
  private result: Buffer | undefined;

  /** The id of a plain modern tools/list request this cache may answer, or undefined. */
  requestId(request: FastifyRequest): string | number | undefined {
    if (
      request.method !== 'POST' ||
      request.headers['mcp-protocol-version'] !== MODERN_REVISION ||
      request.headers['mcp-method'] !== 'tools/list'
    )
      return undefined;
    const body = request.body as { jsonrpc?: unknown; method?: unknown; id?: unknown; params?: unknown } | null;
    if (
      !isPlainObject(body) ||
      body.jsonrpc !== '2.0' ||
      body.method !== 'tools/list' ||
      !Object.keys(body).every((key) => ENVELOPE_KEYS.has(key))
    )
      return undefined;
    if (typeof body.id !== 'string' && !(typeof body.id === 'number' && Number.isFinite(body.id))) return undefined;
    const params = body.params ?? {};
    if (!isPlainObject(params) || Object.keys(params).some((key) => key !== '_meta')) return undefined;
    const meta = params._meta;
    if (
      !isPlainObject(meta) ||
      meta[PROTOCOL_VERSION_META_KEY] !== MODERN_REVISION ||
      !isPlainObject(meta[CLIENT_CAPABILITIES_META_KEY])
    )
      return undefined;
    return body.id;
  }

  /** The cached answer for this id, once there is one. */
  answer(id: string | number): Buffer | undefined {
    if (this.result === undefined) return undefined;
    return Buffer.concat([Buffer.from(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":`), this.result, CLOSE]);
  }

  /** Keeps the result of an answer the SDK gave in JSON. */
  remember(contentType: string | null, text: string): void {
    if (!contentType?.includes('application/json')) return;
    const message = JSON.parse(text) as { result?: unknown };
    if (message.result === undefined) return;
    this.result = Buffer.from(JSON.stringify(message.result));
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
