/**
 * One 2026-07-28 MCP request over HTTP, written by hand: what the 2.x client
 * sends (the per-request _meta envelope and the standard headers), for the
 * parts its API does not cover yet — the Tasks extension — and for requests
 * that must each land wherever a balancer sends them.
 */
import { GiveUp, until } from '../sandbox/until.js';

export const MODERN = '2026-07-28';
export const TASKS = 'io.modelcontextprotocol/tasks';
/** The pollIntervalMs Quarry advertises on a task (hosts/mcp/tool-tasks.ts): a client polls no faster. */
const SERVER_POLL_INTERVAL_MS = 1000;

export interface RawOptions {
  key: string;
  /** Extensions the client declares in its per-request capabilities. */
  extensions?: Record<string, object>;
}

let nextId = 1;

export async function mcpRequest(
  url: string,
  method: string,
  params: Record<string, unknown>,
  options: RawOptions,
): Promise<{ status: number; message: any }> {
  const name = method === 'tools/call' ? params.name : method.startsWith('tasks/') ? params.taskId : undefined;
  const response = await fetch(`${url}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'x-api-key': options.key,
      'mcp-protocol-version': MODERN,
      'mcp-method': method,
      ...(typeof name === 'string' ? { 'mcp-name': name } : {}),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: nextId++,
      method,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': MODERN,
          'io.modelcontextprotocol/clientInfo': { name: 'raw-test', version: '1.0.0' },
          'io.modelcontextprotocol/clientCapabilities': options.extensions ? { extensions: options.extensions } : {},
        },
      },
    }),
  });
  const text = await response.text();
  // An answer streamed as SSE ends with the response; notifications come before it.
  const data = response.headers.get('content-type')?.includes('text/event-stream')
    ? text
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => JSON.parse(line.slice(5)))
        .find((m) => 'result' in m || 'error' in m)
    : text.length > 0
      ? JSON.parse(text)
      : undefined;
  return { status: response.status, message: data };
}

/** Polls tasks/get until the task leaves "working" (each poll may land on another instance). */
export async function finishedTask(
  url: string | (() => string),
  taskId: string,
  key: string,
  timeoutMs = 60_000,
): Promise<any> {
  return until(
    `task ${taskId} to leave "working"`,
    async () => {
      const target = typeof url === 'function' ? url() : url;
      const { message } = await mcpRequest(target, 'tasks/get', { taskId }, { key, extensions: { [TASKS]: {} } });
      if (message.error) throw new GiveUp(`tasks/get failed: ${JSON.stringify(message.error)}`);
      return message.result.status !== 'working' && message.result;
    },
    timeoutMs,
    SERVER_POLL_INTERVAL_MS,
  );
}
