/**
 * tools/list over HTTP from a cache: the list (about 180 kB of schemas) is
 * the same for every caller until the configuration changes, and the SDK
 * rebuilds and re-validates it on every request. The first 2026-07-28
 * tools/list goes through the SDK as usual; its answer is kept, and later
 * ones get the same bytes with their own id. Anything unusual — another
 * revision, a cursor, extra params, a streamed answer — goes to the SDK.
 */
import type { FastifyRequest } from 'fastify';

const MODERN = '2026-07-28';
const VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';

const CLOSE = Buffer.from('}');

export class ToolListCache {
  /** The result's bytes, encoded once: the answer is these between a per-request head and a brace. */
  private result: Buffer | undefined;

  /** The id of a plain modern tools/list request this cache may answer, or undefined. */
  requestId(request: FastifyRequest): string | number | undefined {
    if (request.method !== 'POST' || request.headers['mcp-protocol-version'] !== MODERN || request.headers['mcp-method'] !== 'tools/list') return undefined;
    const body = request.body as { method?: unknown; id?: unknown; params?: { _meta?: Record<string, unknown>; [key: string]: unknown } } | null;
    if (!body || body.method !== 'tools/list' || (typeof body.id !== 'string' && typeof body.id !== 'number')) return undefined;
    const params = body.params ?? {};
    if (Object.keys(params).some((key) => key !== '_meta') || params._meta?.[VERSION_KEY] !== MODERN) return undefined;
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
    if (message.result !== undefined) this.result = Buffer.from(JSON.stringify(message.result));
  }
}
