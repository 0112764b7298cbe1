/**
 * MCP over stdio, one JSON-RPC message per line, answering every malformed
 * line (message-checks.ts) where the SDK's transport stays silent. Lines
 * have a size limit; a longer line is skipped to its newline and answered
 * with -32600, so one oversized message neither exhausts memory nor
 * desynchronises the stream.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../../core/logger.js';
import { checkLine, errorReply, INVALID_REQUEST } from './message-checks.js';

const NEWLINE = 0x0a;

export interface StdioTransportOptions {
  /** Largest accepted line in bytes. */
  maxLineBytes: number;
  logger: Pick<Logger, 'debug'>;
}

export class StrictStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private pieces: Buffer[] = [];
  private pendingBytes = 0;
  /** Inside a line that passed the size limit: bytes are dropped up to its newline. */
  private skipping = false;
  private started = false;

  constructor(
    private options: StdioTransportOptions,
    private readonly input: NodeJS.ReadableStream = process.stdin,
    private readonly output: NodeJS.WritableStream = process.stdout,
  ) {}

  private readonly onData = (chunk: Buffer | string): void => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    let start = 0;
    while (start < bytes.length) {
      const newline = bytes.indexOf(NEWLINE, start);
      const end = newline === -1 ? bytes.length : newline;
      this.take(bytes.subarray(start, end));
      if (newline === -1) break;
      this.endLine();
      start = newline + 1;
    }
  };

  private readonly onError = (error: Error): void => this.onerror?.(error);

  /** Settings known only once the configuration is loaded (quarry mcp answers before that). */
  configure(options: StdioTransportOptions): void {
    this.options = options;
  }

  async start(): Promise<void> {
    if (this.started) throw new Error('the stdio transport is already started');
    this.started = true;
    this.input.on('data', this.onData);
    this.input.on('error', this.onError);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.output.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.output.once('drain', () => resolve());
    });
  }

  async close(): Promise<void> {
    if (!this.started) return;
    this.started = false;
    this.input.off('data', this.onData);
    this.input.off('error', this.onError);
    this.pieces = [];
    this.onclose?.();
  }

  private take(piece: Buffer): void {
    if (this.skipping || piece.length === 0) return;
    if (this.pendingBytes + piece.length > this.options.maxLineBytes) {
      this.skipping = true;
      this.pieces = [];
      this.pendingBytes = 0;
      return;
    }
    this.pieces.push(piece);
    this.pendingBytes += piece.length;
  }

  private endLine(): void {
    if (this.skipping) {
      this.skipping = false;
      void this.send(
        errorReply(
          null,
          INVALID_REQUEST,
          `Invalid Request: the message is longer than ${this.options.maxLineBytes} bytes`,
        ) as JSONRPCMessage,
      );
      return;
    }
    let line = this.pieces.length === 1 ? this.pieces[0]! : Buffer.concat(this.pieces);
    this.pieces = [];
    this.pendingBytes = 0;
    if (line.at(-1) === 0x0d) line = line.subarray(0, -1);
    // Blank lines carry no message; editors and humans leave them.
    if (line.every((byte) => byte === 0x20 || byte === 0x09)) return;
    const verdict = checkLine(line);
    if ('reply' in verdict) {
      this.options.logger.debug({ error: verdict.reply.error }, 'malformed MCP message answered');
      void this.send(verdict.reply as unknown as JSONRPCMessage);
    } else if ('drop' in verdict) {
      this.options.logger.debug({ reason: verdict.drop }, 'malformed MCP notification or response dropped');
    } else {
      this.onmessage?.(verdict.message);
    }
  }
}
