/**
 * A small, self-contained contract harness for one API area (the lead may
 * fold it into the shared contract helper): Quarry over HTTP and, in the same
 * process, over MCP (the SDK's in-memory transport), so that every case can
 * check both hosts give the same JSON; and a field-type checker for response
 * shapes, with nullability spelled out.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { expect } from 'vitest';
import { keyPrincipalId } from '../../hosts/http/api-keys.js';
import { buildMcpServer } from '../../hosts/mcp/server.js';
import { TEST_KEY, type RunningQuarry } from '../e2e/harness.js';

export interface Hosts {
  http: RunningQuarry;
  mcp: Client;
  close(): Promise<void>;
}

export async function connectHosts(http: RunningQuarry): Promise<Hosts> {
  // Both hosts act for the same caller (the HTTP test key), so each sees what the other made.
  const server = buildMcpServer(http.app, { id: keyPrincipalId(TEST_KEY), admin: false });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const mcp = new Client({ name: 'contract', version: '1.0.0' });
  await mcp.connect(clientSide);
  return {
    http,
    mcp,
    async close() {
      await mcp.close();
      await server.close();
    },
  };
}

/** A field type: "string", "number", "integer", "boolean", "array", "object", "null", or several joined by "|". */
export type FieldType = string;

/** Checks `value` against a shape: { field: type } for objects, with "field[]" for arrays of objects. */
export function expectShape(
  value: unknown,
  shape: Record<string, FieldType | Record<string, FieldType>>,
  where = 'body',
): void {
  expect(value, where).toBeTypeOf('object');
  const object = value as Record<string, unknown>;
  for (const [key, type] of Object.entries(shape)) {
    if (key.endsWith('[]')) {
      const name = key.slice(0, -2);
      const items = object[name];
      expect(Array.isArray(items), `${where}.${name} is an array`).toBe(true);
      for (const [i, item] of (items as unknown[]).entries())
        expectShape(item, type as Record<string, FieldType>, `${where}.${name}[${i}]`);
      continue;
    }
    const optional = key.endsWith('?');
    const name = optional ? key.slice(0, -1) : key;
    if (optional && !(name in object)) continue;
    expect(name in object, `${where}.${name} is present`).toBe(true);
    const allowed = (type as string).split('|');
    const actual = object[name];
    const kind =
      actual === null ? 'null' : Array.isArray(actual) ? 'array' : Number.isInteger(actual) ? 'integer' : typeof actual;
    const ok = allowed.includes(kind) || (kind === 'integer' && allowed.includes('number'));
    expect(ok, `${where}.${name} is ${type}, got ${kind} (${JSON.stringify(actual)?.slice(0, 80)})`).toBe(true);
  }
}

/** Calls a tool and returns its structuredContent, or the error text. */
export async function callTool(
  mcp: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<{ ok: boolean; body: any; text: string }> {
  const result = await mcp.callTool({ name, arguments: args });
  const text = (result.content as Array<{ text: string }>)[0]?.text ?? '';
  return { ok: !result.isError, body: result.structuredContent, text };
}

/** Fields that differ between two calls of the same request (ids, timings). */
const VOLATILE = new Set([
  'request_id',
  'response_time',
  'processing_time_ms',
  'job_id',
  'status_url',
  'scraped_at',
  'corpus_id',
  'created_at',
  'updated_at',
  'id',
]);

export function stable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stable);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .filter(([k]) => !VOLATILE.has(k))
        .map(([k, v]) => [k, stable(v)]),
    );
  }
  return value;
}
