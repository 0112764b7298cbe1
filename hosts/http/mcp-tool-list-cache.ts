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
 * has already refused forbidden keys and deep nesting. A client that accepts
 * gzip (fetch, and so both SDK clients, always does) gets the list compressed
 * once at the first answer (about 25 kB): per request only the id is added, as
 * a stored deflate block at the end of the compressed stream, so no request
 * compresses or copies the list.
 */
import { constants, crc32, deflateRawSync } from 'node:zlib';
import type { FastifyRequest } from 'fastify';

const MODERN = '2026-07-28';
const VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';
const CAPABILITIES_KEY = 'io.modelcontextprotocol/clientCapabilities';
const ENVELOPE_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);

const CLOSE = Buffer.from('}');
/** A gzip member's header: deflate, no name or time, unknown OS (RFC 1952). */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
/** The longest id a stored block carries whole (its length field is 16 bits); longer ids go uncompressed. */
const MAX_STORED_BYTES = 0xffff;

export interface CachedAnswer {
  body: Buffer;
  /** The body is gzip: send Content-Encoding: gzip. */
  gzip: boolean;
}

/** The compressed part of an answer whose id comes last: `{"jsonrpc":"2.0","result":…` deflated, ending on a byte boundary. */
interface Compressed {
  deflated: Buffer;
  crc: number;
  length: number;
}

export class ToolListCache {
  /** The result's bytes, encoded once: the answer is these between a per-request head and a brace. */
  private result: Buffer | undefined;
  private compressed: Compressed | undefined;

  /** The id of a plain modern tools/list request this cache may answer, or undefined. */
  requestId(request: FastifyRequest): string | number | undefined {
    if (request.method !== 'POST' || request.headers['mcp-protocol-version'] !== MODERN || request.headers['mcp-method'] !== 'tools/list') return undefined;
    const body = request.body as { jsonrpc?: unknown; method?: unknown; id?: unknown; params?: unknown } | null;
    if (!isPlainObject(body) || body.jsonrpc !== '2.0' || body.method !== 'tools/list' || !Object.keys(body).every((key) => ENVELOPE_KEYS.has(key))) return undefined;
    if (typeof body.id !== 'string' && !(typeof body.id === 'number' && Number.isFinite(body.id))) return undefined;
    const params = body.params ?? {};
    if (!isPlainObject(params) || Object.keys(params).some((key) => key !== '_meta')) return undefined;
    const meta = params._meta;
    if (!isPlainObject(meta) || meta[VERSION_KEY] !== MODERN || !isPlainObject(meta[CAPABILITIES_KEY])) return undefined;
    return body.id;
  }

  /** The cached answer for this id, once there is one: gzip when the client accepts it. */
  answer(id: string | number, acceptEncoding: string | undefined): CachedAnswer | undefined {
    if (this.result === undefined) return undefined;
    const idJson = JSON.stringify(id);
    if (this.compressed && acceptsGzip(acceptEncoding) && Buffer.byteLength(idJson) < MAX_STORED_BYTES - 8) {
      return { body: gzipWithTail(this.compressed, Buffer.from(`,"id":${idJson}}`)), gzip: true };
    }
    return { body: Buffer.concat([Buffer.from(`{"jsonrpc":"2.0","id":${idJson},"result":`), this.result, CLOSE]), gzip: false };
  }

  /** Keeps the result of an answer the SDK gave in JSON. */
  remember(contentType: string | null, text: string): void {
    if (!contentType?.includes('application/json')) return;
    const message = JSON.parse(text) as { result?: unknown };
    if (message.result === undefined) return;
    this.result = Buffer.from(JSON.stringify(message.result));
    // JSON-RPC members are unordered: the id goes last, so everything before it is compressed once.
    const head = Buffer.concat([Buffer.from('{"jsonrpc":"2.0","result":'), this.result]);
    // A sync flush ends the stream on a byte boundary without a final block, so a stored block can follow.
    this.compressed = { deflated: deflateRawSync(head, { finishFlush: constants.Z_SYNC_FLUSH }), crc: crc32(head), length: head.length };
  }
}

/** One gzip member: the compressed head, then the tail as the final stored block, then the checksum of both (RFC 1951 §3.2.4, RFC 1952). */
function gzipWithTail(head: Compressed, tail: Buffer): Buffer {
  const block = Buffer.alloc(5);
  block[0] = 1; // BFINAL = 1, BTYPE = 00 (stored), padded to the byte.
  block.writeUInt16LE(tail.length, 1);
  block.writeUInt16LE(~tail.length & 0xffff, 3);
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc32(tail, head.crc), 0);
  trailer.writeUInt32LE((head.length + tail.length) >>> 0, 4);
  return Buffer.concat([GZIP_HEADER, head.deflated, block, tail, trailer]);
}

/** Whether Accept-Encoding allows gzip (named without q=0, or * without q=0 and gzip not refused). */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  let wildcard = false;
  for (const part of header.toLowerCase().split(',')) {
    const [coding, ...parameters] = part.trim().split(';');
    const refused = parameters.some((p) => /^\s*q\s*=\s*0(\.0{0,3})?\s*$/.test(p));
    if (coding === 'gzip' || coding === 'x-gzip') return !refused;
    if (coding === '*') wildcard = !refused;
  }
  return wildcard;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
