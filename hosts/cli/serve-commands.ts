/** quarry serve: the HTTP host over the core, draining gracefully on signals (shutdown.ts). */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { createQuarry } from '../../app/create-quarry.js';
import { buildHttpServer } from '../http/server.js';
import { drainDelayMs, onShutdown } from './shutdown.js';

/**
 * While draining, GET /healthz answers 503 so a load balancer's health
 * checks take the instance out of rotation before it stops listening;
 * every other request is served as usual. (A listener closed while the
 * balancer still sends to it resets connections the kernel had already
 * accepted for it: requests lost.)
 */
function drainingHealth(server: FastifyInstance): { start(): void } {
  let draining = false;
  server.addHook('onRequest', async (request, reply) => {
    if (draining && request.method === 'GET' && request.url.split('?')[0] === '/healthz') {
      return reply.status(503).type('application/json').send({ status: 'draining' });
    }
    return undefined;
  });
  return {
    start: () => {
      draining = true;
    },
  };
}

/**
 * A connection is closed as idle only after this long without a request: one just accepted may still be sending its
 * first.
 */
const IDLE_CLOSE_MS = 1000;

/** Which connections carry a request now, and since when the others have been idle. */
function trackConnections(http: Server): { closeIdle(now: number): void } {
  const connections = new Map<Socket, { requests: number; idleSince: number }>();
  http.on('connection', (socket: Socket) => {
    connections.set(socket, { requests: 0, idleSince: Date.now() });
    socket.once('close', () => connections.delete(socket));
  });
  http.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const state = connections.get(request.socket);
    if (!state) return;
    state.requests++;
    response.once('close', () => {
      state.requests--;
      state.idleSince = Date.now();
    });
  });
  return {
    closeIdle(now) {
      for (const [socket, state] of connections)
        if (state.requests === 0 && now - state.idleSince >= IDLE_CLOSE_MS) socket.destroy();
    },
  };
}

/**
 * After the drain delay, stops listening (a load balancer's next connection
 * goes to another instance), lets requests in flight finish within the
 * grace period, closing connections once they have been idle a moment,
 * then closes whatever is left. Node's own close() would also drop at once every
 * connection without a request in flight — including one just accepted
 * whose request has not arrived yet, which its client then sees reset.
 */
async function drainHttp(
  server: FastifyInstance,
  connections: ReturnType<typeof trackConnections>,
  drainMs: number,
  graceMs: number,
): Promise<void> {
  if (drainMs > 0) await new Promise((resolve) => setTimeout(resolve, drainMs));
  const http = server.server;
  const drained = new Promise<void>((resolve) => NetServer.prototype.close.call(http, () => resolve()));
  const idleSweep = setInterval(() => connections.closeIdle(Date.now()), 100);
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([drained, new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)))]);
  clearInterval(idleSweep);
  clearTimeout(timer);
  await server.close();
}

export async function runServe(): Promise<number> {
  const app = await createQuarry();
  const server = await buildHttpServer(app);
  const connections = trackConnections(server.server);
  const health = drainingHealth(server);
  const address = await server.listen({ host: app.config.host, port: app.config.port });
  app.logger.info(
    { address, jobs: app.services.jobs.backend },
    `Quarry HTTP API listening on ${address} (OpenAPI: ${address}/api/v1/openapi.json)`,
  );
  onShutdown(app, (graceMs) => {
    health.start();
    return drainHttp(server, connections, drainDelayMs(app), graceMs);
  });
  return -1;
}
