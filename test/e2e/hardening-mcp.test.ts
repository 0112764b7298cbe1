/**
 * Issue 17, MCP: every malformed line over real stdio gets the JSON-RPC 2.0
 * error it deserves (-32700, -32600, -32602 naming the field), the stream
 * stays usable afterwards, and the official SDK client sees -32602 for
 * arguments that are not an object.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcpStdio, mcpStdioCommand, type McpStdioCommand } from './mcp-stdio.js';

/** One configuration (and store) for every session; the raw ones keep their own framing over the same command. */
let command: McpStdioCommand;

beforeAll(async () => {
  command = await mcpStdioCommand(null, { vectorIndex: { enabled: false } });
});

afterAll(() => command?.cleanup());

/** A raw stdio session: write lines, read the replies by id (or the next id-less one). */
class RawSession {
  private readonly child: ChildProcessWithoutNullStreams;
  private buffer = '';
  private readonly replies: Array<Record<string, any>> = [];
  private waiters: Array<() => void> = [];

  constructor() {
    this.child = spawn(command.command, command.args, { env: command.env });
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (chunk: string) => {
      this.buffer += chunk;
      let newline: number;
      while ((newline = this.buffer.indexOf('\n')) !== -1) {
        const line = this.buffer.slice(0, newline);
        this.buffer = this.buffer.slice(newline + 1);
        // Every line on stdout must be JSON: this throws (and fails the test) otherwise.
        this.replies.push(JSON.parse(line));
        for (const wake of this.waiters.splice(0)) wake();
      }
    });
  }

  write(line: string | Buffer): void {
    this.child.stdin.write(line);
    this.child.stdin.write('\n');
  }

  /** The next reply, in arrival order. Lines are answered in order, so a test can pair them. */
  async next(): Promise<Record<string, any>> {
    while (this.replies.length === 0) await new Promise<void>((resolve) => this.waiters.push(resolve));
    return this.replies.shift()!;
  }

  async initialize(): Promise<void> {
    this.write(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 'init',
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      }),
    );
    expect((await this.next()).id).toBe('init');
    this.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  }

  close(): void {
    this.child.kill();
  }
}

describe('MCP stdio answers every malformed message (JSON-RPC 2.0)', () => {
  // One process for the whole table: every reply must come back in step with its line.
  let session: RawSession;
  beforeAll(async () => {
    session = new RawSession();
    await session.initialize();
  });
  afterAll(() => session?.close());

  it.each([
    ['not JSON', -32700, 'not json', null],
    ['truncated JSON', -32700, '{', null],
    ['invalid UTF-8', -32700, Buffer.from([0xff, 0xfe, 0x7b]), null],
    ['an empty batch', -32600, '[]', null],
    ['an empty object', -32600, '{}', null],
    ['null', -32600, 'null', null],
    ['a number', -32600, '42', null],
    ['a string', -32600, '"a string"', null],
    ['an object id', -32600, '{"jsonrpc":"2.0","id":{"an":"object"},"method":"tools/list"}', null],
    ['jsonrpc 1.0', -32600, '{"jsonrpc":"1.0","id":7,"method":"tools/list"}', 7],
    ['string params', -32600, '{"jsonrpc":"2.0","id":8,"method":"tools/list","params":"bad"}', 8],
    ['a numeric method', -32600, '{"jsonrpc":"2.0","id":9,"method":42}', 9],
    [
      'a batch',
      -32600,
      '[{"jsonrpc":"2.0","id":10,"method":"tools/list"},{"jsonrpc":"2.0","id":11,"method":"ping"}]',
      null,
    ],
    [
      '10,000 levels of nesting',
      -32600,
      `{"jsonrpc":"2.0","id":12,"method":"tools/list","params":{"cursor":${'['.repeat(10_000)}${']'.repeat(10_000)}}}`,
      null,
    ],
    [
      'a top-level __proto__ key',
      -32600,
      '{"jsonrpc":"2.0","id":13,"method":"tools/call","params":{"name":"enhanced_chunk_content","arguments":{' +
        '"text":"a"}},"__proto__":{"x":1}}',
      13,
    ],
    [
      'string arguments',
      -32602,
      '{"jsonrpc":"2.0","id":14,"method":"tools/call","params":{"name":"enhanced_chunk_content","arguments":"text"}}',
      14,
    ],
    [
      '__proto__ inside arguments',
      -32602,
      '{"jsonrpc":"2.0","id":15,"method":"tools/call","params":{"name":"enhanced_chunk_content","arguments":{' +
        '"text":"a","__proto__":{"x":1}}}}',
      15,
    ],
    [
      'tools/call without a name',
      -32602,
      '{"jsonrpc":"2.0","id":16,"method":"tools/call","params":{"arguments":{}}}',
      16,
    ],
    ['an unknown method', -32601, '{"jsonrpc":"2.0","id":17,"method":"no/such/method"}', 17],
  ] as Array<[string, number, string | Buffer, number | null]>)('%s → %i', async (_label, code, line, id) => {
    session.write(line);
    const reply = await session.next();
    expect(reply).toMatchObject({ jsonrpc: '2.0', id, error: { code } });
    expect(typeof reply.error.message).toBe('string');
    // The stream is still in step: the next request gets its own answer.
    session.write(JSON.stringify({ jsonrpc: '2.0', id: 'after', method: 'ping' }));
    expect(await session.next()).toMatchObject({ id: 'after', result: {} });
  });

  it('names the field in -32602 replies and never dumps raw validator output', async () => {
    const session = new RawSession();
    try {
      await session.initialize();
      session.write(
        '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"enhanced_chunk_content","arguments":"text"}}',
      );
      const bad = await session.next();
      expect(bad.error.data).toEqual({ field: 'params.arguments' });
      expect(bad.error.message).toMatch(/^Invalid params: params\.arguments: /);
      expect(bad.error.message).not.toContain('[\n');
      session.write(
        '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"enhanced_chunk_content","arguments":' +
          '{"text":"a","options":{"constructor":{}}}}}',
      );
      expect((await session.next()).error).toMatchObject({
        code: -32602,
        data: { field: 'params.arguments.options.constructor' },
      });
    } finally {
      session.close();
    }
  });

  it('answers a line longer than the limit with -32600 and reads the next line normally', async () => {
    const session = new RawSession();
    try {
      await session.initialize();
      // The default body limit is 1 MiB; the line limit adds 64 KiB of envelope.
      session.write(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"${'x'.repeat(1_200_000)}"}}`);
      expect(await session.next()).toMatchObject({
        id: null,
        error: { code: -32600, message: expect.stringContaining('longer than') },
      });
      session.write('{"jsonrpc":"2.0","id":2,"method":"ping"}');
      expect(await session.next()).toMatchObject({ id: 2, result: {} });
    } finally {
      session.close();
    }
  });

  it('the official SDK client gets McpError -32602 for non-object arguments, and isError naming the field for a bad value', async () => {
    const { client } = await connectMcpStdio(command, 'hardening');
    try {
      const error = await client
        .callTool({ name: 'enhanced_chunk_content', arguments: 'text' as never })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(McpError);
      expect((error as McpError).code).toBe(-32602);
      expect((error as McpError).message).toContain('params.arguments');
      const result = await client.callTool({ name: 'enhanced_chunk_content', arguments: { text: 5 } });
      expect(result.isError).toBe(true);
      expect((result.content as Array<{ text: string }>)[0]!.text).toContain('text:');
    } finally {
      await client.close();
    }
  });
});
