/**
 * Reading one line of MCP over stdio as JSON-RPC 2.0 does: every malformed
 * message gets an error reply instead of silence. -32700 when the line is
 * not JSON (or not UTF-8); -32600 when it is not a valid request object
 * (wrong jsonrpc version, bad id, params that are not structured, a batch —
 * MCP has none since 2025-06-18 — or a forbidden key in the envelope);
 * -32602 naming the field when a request's params do not fit its method.
 * Only a message that passes reaches the SDK's protocol layer.
 */
import { isUtf8 } from 'node:buffer';
import {
  CallToolRequestSchema,
  InitializeRequestSchema,
  JSONRPCMessageSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
  SetLevelRequestSchema,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { toAppError } from '../../core/errors.js';
import { findInputShapeProblem, FORBIDDEN_KEYS, jsonNestsDeeperThan, MAX_INPUT_DEPTH } from '../../core/input-shape.js';

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const INVALID_PARAMS = -32602;
export const INTERNAL_ERROR = -32603;

type Id = string | number | null;

export interface ErrorReply {
  jsonrpc: '2.0';
  id: Id;
  error: { code: number; message: string; data?: unknown };
}

export type LineVerdict = { message: JSONRPCMessage } | { reply: ErrorReply } | { drop: string };

/** Params schemas of the requests this server answers; other methods go on to the SDK (which answers -32601). */
const REQUEST_SCHEMAS: Record<string, z.ZodType> = {
  initialize: InitializeRequestSchema,
  ping: PingRequestSchema,
  'tools/list': ListToolsRequestSchema,
  'tools/call': CallToolRequestSchema,
  'logging/setLevel': SetLevelRequestSchema,
};

export function errorReply(id: Id, code: number, message: string, data?: unknown): ErrorReply {
  return { jsonrpc: '2.0', id, error: data === undefined ? { code, message } : { code, message, data } };
}

/** Judges one line (without its newline). */
export function checkLine(line: Buffer): LineVerdict {
  if (!isUtf8(line)) return { reply: errorReply(null, PARSE_ERROR, 'Parse error: the message is not valid UTF-8') };
  const text = line.toString('utf8');
  // The envelope adds params and arguments around a tool's input.
  if (jsonNestsDeeperThan(text, MAX_INPUT_DEPTH + 3)) {
    return {
      reply: errorReply(
        null,
        INVALID_REQUEST,
        `Invalid Request: the message nests more than ${MAX_INPUT_DEPTH + 3} levels deep`,
      ),
    };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { reply: errorReply(null, PARSE_ERROR, `Parse error: ${(error as Error).message}`) };
  }
  return checkMessage(value);
}

export function checkMessage(value: unknown): LineVerdict {
  if (Array.isArray(value)) {
    return {
      reply: errorReply(
        null,
        INVALID_REQUEST,
        'Invalid Request: batches are not supported (MCP removed JSON-RPC batching in 2025-06-18); send one ' +
          'message per line',
      ),
    };
  }
  if (value === null || typeof value !== 'object')
    return { reply: errorReply(null, INVALID_REQUEST, 'Invalid Request: a message must be a JSON object') };
  const message = value as Record<string, unknown>;
  const hasId = Object.hasOwn(message, 'id');
  const id = message.id;
  if (hasId && !(typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) || id === null)) {
    return {
      reply: errorReply(null, INVALID_REQUEST, 'Invalid Request: id must be a string, a number or null', {
        field: 'id',
      }),
    };
  }
  const replyId: Id = hasId ? (id as Id) : null;
  const invalid = (text: string, field?: string): LineVerdict => {
    // A notification (no id) is never answered, malformed or not.
    if (!hasId && typeof message.method === 'string') return { drop: text };
    return { reply: errorReply(replyId, INVALID_REQUEST, `Invalid Request: ${text}`, field ? { field } : undefined) };
  };

  for (const key of Object.keys(message)) {
    if (FORBIDDEN_KEYS.has(key)) return invalid(`the key "${key}" is not accepted`, key);
  }
  if (message.jsonrpc !== '2.0') return invalid('jsonrpc must be exactly "2.0"', 'jsonrpc');
  const isResponse = Object.hasOwn(message, 'result') || Object.hasOwn(message, 'error');
  if (!isResponse && typeof message.method !== 'string') return invalid('method must be a string', 'method');
  if (Object.hasOwn(message, 'params') && (message.params === null || typeof message.params !== 'object')) {
    return invalid('params must be an object', 'params');
  }

  if (message.params !== undefined) {
    const problem = paramsShapeProblem(message.params as object);
    if (problem) return invalidParams(hasId, replyId, problem.field, problem.message);
  }
  const parsed = JSONRPCMessageSchema.safeParse(message);
  if (!parsed.success) {
    // A response we cannot read can only be dropped: JSON-RPC never answers a response.
    if (isResponse) return { drop: 'malformed response' };
    const issue = parsed.error.issues[0];
    return invalid(issue ? `${issue.path.join('.') || 'message'}: ${issue.message}` : 'not a JSON-RPC 2.0 message');
  }
  const schema = typeof message.method === 'string' ? REQUEST_SCHEMAS[message.method] : undefined;
  if (schema && hasId) {
    const request = schema.safeParse(message);
    if (!request.success) {
      const issue = request.error.issues[0]!;
      return invalidParams(hasId, replyId, issue.path.map(String).join('.') || 'params', issue.message);
    }
  }
  return { message: parsed.data as JSONRPCMessage };
}

function invalidParams(hasId: boolean, id: Id, field: string, message: string): LineVerdict {
  if (!hasId) return { drop: `invalid params: ${field}` };
  return { reply: errorReply(id, INVALID_PARAMS, `Invalid params: ${field}: ${message}`, { field }) };
}

/** Forbidden keys and depth inside params, named from "params"; a tool's arguments are measured like an HTTP body. */
function paramsShapeProblem(params: object): { field: string; message: string } | null {
  if (Array.isArray(params)) return { field: 'params', message: 'must be an object (MCP takes named parameters)' };
  for (const [key, value] of Object.entries(params)) {
    if (FORBIDDEN_KEYS.has(key)) return { field: `params.${key}`, message: `the key "${key}" is not accepted` };
    const problem = findInputShapeProblem(value);
    if (problem)
      return {
        field: problem.field === '(body)' ? `params.${key}` : `params.${key}.${problem.field}`,
        message: problem.message,
      };
  }
  return null;
}

/**
 * A failed task or resource request as its JSON-RPC error: an unknown task or
 * resource, or a malformed id, is the client's to fix (invalid params, which
 * is also what the 2026-07-28 revision asks for a resource it cannot find);
 * anything else is internal.
 */
export function requestFailure(error: unknown): { code: number; message: string; data: { code: string } } {
  const appError = toAppError(error);
  const code = appError.code === 'NOT_FOUND' || appError.code === 'INVALID_INPUT' ? INVALID_PARAMS : INTERNAL_ERROR;
  return { code, message: appError.message, data: { code: appError.code } };
}
