import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { LATEST_PROTOCOL_VERSION, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { recordProgress } from './mcp-progress.js';

/**
 * A server side played by hand: it answers the handshake, and answers a tool call with its last
 * progress notification and the result in one read, as a stdio client sees them when it was
 * descheduled between the two writes.
 */
class OneReadServer implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;

  async start(): Promise<void> {}
  async close(): Promise<void> {}

  async send(message: JSONRPCMessage): Promise<void> {
    if (!('method' in message) || !('id' in message)) return;
    const { id, method, params } = message as {
      id: number;
      method: string;
      params?: { _meta?: { progressToken?: number } };
    };
    queueMicrotask(() => {
      if (method === 'initialize') {
        this.onmessage?.({
          jsonrpc: '2.0',
          id,
          result: {
            protocolVersion: LATEST_PROTOCOL_VERSION,
            capabilities: { tools: {} },
            serverInfo: { name: 'one-read', version: '1' },
          },
        });
        return;
      }
      const progressToken = params?._meta?.progressToken;
      this.onmessage?.({
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: progressToken!, progress: 4, total: 4, message: 'last page read' },
      });
      this.onmessage?.({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: 'done' }] } });
    });
  }
}

async function connected(): Promise<Client> {
  const client = new Client({ name: 'progress-test', version: '1' });
  await client.connect(new OneReadServer());
  return client;
}

describe('recordProgress', () => {
  it('counts the notification the SDK client drops when it arrives in the same read as the answer', async () => {
    const plain = await connected();
    const received: unknown[] = [];
    plain.onerror = () => undefined;
    await plain.callTool({ name: 'crawl', arguments: {} }, undefined, { onprogress: (p) => received.push(p) });
    // The race this helper exists for (typescript-sdk #2580): the plain handler never sees it.
    expect(received).toEqual([]);

    const client = await connected();
    const recorder = recordProgress(client);
    await client
      .callTool({ name: 'crawl', arguments: {} }, undefined, { onprogress: recorder.onprogress })
      .finally(recorder.stop);
    expect(recorder.seen).toEqual([{ progress: 4, total: 4, message: 'last page read' }]);
  });

  it('passes other errors on, and gives the client its own handler back when stopped', async () => {
    const client = await connected();
    const errors: string[] = [];
    client.onerror = (error) => errors.push(error.message);
    const recorder = recordProgress(client);
    client.onerror!(new Error('the transport broke'));
    recorder.stop();
    client.onerror!(new Error('after'));
    expect(errors).toEqual(['the transport broke', 'after']);
    expect(recorder.seen).toEqual([]);
  });
});
