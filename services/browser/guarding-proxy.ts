/**
 * A loopback HTTP proxy that Chromium sends all its traffic through, so the
 * outbound guard sees every connection a page makes, including redirect hops
 * (which Chromium follows without asking context.route again) and WebSockets.
 * Plain http:// arrives as absolute-URI requests, https:// and ws(s):// as CONNECT.
 * Upstream connections live only as long as the browser's: a page closed
 * while its upstream never answers leaves no socket behind.
 */
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { connect as netConnect, type AddressInfo, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Logger } from '../../core/logger.js';
import { untilAborted } from '../../core/abort.js';
import type { UrlGuard } from './request-guard.js';

/** Hop-by-hop headers a proxy must not forward. */
const HOP_HEADERS = ['proxy-connection', 'proxy-authorization', 'connection', 'keep-alive', 'te', 'trailer', 'upgrade'];

export class GuardingProxy {
  private server: Server | null = null;
  private starting: Promise<string> | null = null;
  private readonly sockets = new Set<Duplex>();

  constructor(
    private readonly guard: UrlGuard,
    private readonly logger: Logger,
  ) {}

  /** Starts once; resolves with the proxy's URL (http://127.0.0.1:<port>). */
  start(): Promise<string> {
    this.starting ??= new Promise<string>((resolve, reject) => {
      const server = createServer((request, response) => void this.forward(request, response));
      server.on(
        'connect',
        (request: IncomingMessage, socket: Duplex, head: Buffer) => void this.tunnel(request, socket, head),
      );
      server.on('connection', (socket: Socket) => this.track(socket));
      server.on('clientError', (_error, socket) => socket.destroy());
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        this.server = server;
        resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
      });
    });
    return this.starting;
  }

  /** Bounded: every socket, browser side and upstream side, is destroyed rather than waited for. */
  async close(): Promise<void> {
    const server = this.server;
    this.server = null;
    this.starting = null;
    const closed = server ? new Promise<void>((resolve) => server.close(() => resolve())) : Promise.resolve();
    server?.closeAllConnections();
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    await closed;
  }

  private async forward(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let target: URL;
    try {
      target = new URL(request.url ?? '');
      if (target.protocol !== 'http:') throw new Error('not http');
    } catch {
      response.writeHead(400).end();
      return;
    }
    if (!(await this.allowed(target.href, request.socket))) {
      // No answer at all: the page sees a network error, not a page we made up.
      request.socket.destroy();
      return;
    }
    const headers = { ...request.headers };
    for (const name of HOP_HEADERS) delete headers[name];
    const upstream = httpRequest(
      {
        host: target.hostname.replace(/^\[|\]$/g, ''),
        port: target.port || 80,
        method: request.method,
        path: target.pathname + target.search,
        headers,
      },
      (upstreamResponse) => {
        const responseHeaders = { ...upstreamResponse.headers };
        for (const name of HOP_HEADERS) delete responseHeaders[name];
        response.writeHead(upstreamResponse.statusCode ?? 502, responseHeaders);
        upstreamResponse.pipe(response);
      },
    );
    upstream.on('socket', (socket) => this.track(socket));
    upstream.on('error', () => {
      if (!response.headersSent) response.writeHead(502).end();
      else response.destroy();
    });
    // The browser gave up (page closed, deadline): an upstream that never answers must not keep its socket.
    response.on('close', () => {
      if (!response.writableFinished) upstream.destroy();
    });
    request.pipe(upstream);
  }

  private async tunnel(request: IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
    this.track(client);
    client.on('error', () => client.destroy());
    const match = /^\[?([^\]]+?)\]?:(\d+)$/.exec(request.url ?? '');
    if (!match) {
      client.end('HTTP/1.1 400 Bad Request\r\n\r\n');
      return;
    }
    const [, host = '', port = ''] = match;
    const hostForUrl = host.includes(':') ? `[${host}]` : host;
    // Only host and port matter to the guard; the scheme just has to be a network one.
    if (!(await this.allowed(`http://${hostForUrl}:${port}/`, client))) {
      client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      return;
    }
    const upstream = netConnect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    this.track(upstream);
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
  }

  /** The guard's answer, or false once the browser closed the connection that asked. */
  private async allowed(url: string, asker: Duplex): Promise<boolean> {
    if (asker.destroyed) return false;
    const gone = new AbortController();
    const onClose = (): void => gone.abort();
    asker.once('close', onClose);
    try {
      await untilAborted(this.guard.checkUrl(url), gone.signal);
      return !asker.destroyed;
    } catch (error) {
      if (!gone.signal.aborted)
        this.logger.debug({ url, err: error }, 'browser connection refused by the outbound policy');
      return false;
    } finally {
      asker.off('close', onClose);
    }
  }

  private track(socket: Duplex): void {
    // Upstream sockets come back for every request a keep-alive agent reuses them for.
    if (this.sockets.has(socket)) return;
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
  }
}
