/**
 * A capability's WebSocket (CapabilityDefinition.http.websocket) on its GET
 * route, through @fastify/websocket: the upgrade passes the hooks every
 * request passes (the key, which a WebSocket client sends as its first
 * subprotocol, and the rate limit), the input is prepared and validated as for
 * the GET, then each value the stream yields goes out as one JSON text
 * message, one at a time (a slow reader holds the stream, not memory), and the
 * socket is closed with the reason the stream returns. A client that leaves
 * aborts the call's signal; a failure closes the socket with its message.
 */
import type { FastifyRequest } from 'fastify';
import type { QuarryApp } from '../../app/create-quarry.js';
import type { AnyCapability, CallContext } from '../../core/capability.js';
import { publicError } from '../../core/errors.js';
import type { Principal } from '../../core/principal.js';

/** The protocol's bound on a close frame's reason. */
const MAX_REASON_BYTES = 123;
/** Close codes: normal, the request was refused (bad input, unknown id), the server failed. */
const NORMAL = 1000;
const REFUSED = 1008;
const FAILED = 1011;
const REFUSAL_CODES = new Set(['INVALID_INPUT', 'NOT_FOUND', 'UNAUTHORIZED', 'FORBIDDEN']);

/** The part of a `ws` socket used here (ws ships no types; @types/ws is not worth a dependency for five members). */
export interface WebSocket {
  readonly readyState: number;
  readonly OPEN: number;
  send(data: string, done: (error?: Error) => void): void;
  close(code: number, reason?: string): void;
  once(event: 'close', listener: () => void): void;
}

class SocketCallContext implements CallContext {
  readonly host = 'http';
  readonly logger: CallContext['logger'];
  readonly caller: Principal | undefined;
  private readonly closed = new AbortController();

  constructor(
    private readonly request: FastifyRequest,
    socket: WebSocket,
    private readonly publicUrl: string | null,
  ) {
    this.logger = request.log as CallContext['logger'];
    this.caller = request.principal;
    socket.once('close', () => this.closed.abort());
  }

  get signal(): AbortSignal {
    return this.closed.signal;
  }

  progress(): void {}

  get baseUrl(): string {
    return this.publicUrl ?? `${this.request.protocol}://${this.request.host}`;
  }
}

export function websocketHandler(
  app: QuarryApp,
  capability: AnyCapability,
  inputOf: (request: FastifyRequest) => unknown,
): (socket: WebSocket, request: FastifyRequest) => Promise<void> {
  const open = capability.http.websocket!;
  return async (socket, request) => {
    const ctx = new SocketCallContext(request, socket, app.config.http.publicUrl);
    try {
      const stream = open(app.registry.validate(capability, inputOf(request)), ctx);
      for (;;) {
        const step = await stream.next();
        if (step.done) return closeWith(socket, NORMAL, step.value);
        if (socket.readyState !== socket.OPEN) {
          await stream.return(undefined);
          return;
        }
        await send(socket, JSON.stringify(step.value));
      }
    } catch (error) {
      if (ctx.signal.aborted) return;
      const appError = publicError(error, ctx.logger, { capability: capability.id });
      closeWith(socket, REFUSAL_CODES.has(appError.code) ? REFUSED : FAILED, appError.message);
    }
  };
}

function send(socket: WebSocket, text: string): Promise<void> {
  return new Promise((resolve, reject) => socket.send(text, (error) => (error ? reject(error) : resolve())));
}

function closeWith(socket: WebSocket, code: number, reason: string | undefined): void {
  if (socket.readyState !== socket.OPEN) return;
  socket.close(code, reason === undefined ? undefined : withinBytes(reason, MAX_REASON_BYTES));
}

function withinBytes(text: string, max: number): string {
  let cut = text;
  while (Buffer.byteLength(cut) > max) cut = cut.slice(0, -1);
  return cut;
}
