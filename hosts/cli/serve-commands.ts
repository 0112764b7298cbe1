/** quarry serve and quarry mcp: start a host over the core, and stop gracefully on signals. */
import type { FastifyInstance } from 'fastify';
import { createQuarry, type QuarryApp } from '../../app/create-quarry.js';
import { buildHttpServer } from '../http/server.js';
import { serveMcpOverStdio } from '../mcp/server.js';

/** Past the grace period, what closing pools and stores may take before the process exits anyway. */
const CLOSE_MARGIN_MS = 10_000;

/**
 * On SIGTERM or SIGINT: stop taking new work (connections, jobs), give
 * running requests and jobs the grace period to finish, hand back the jobs
 * still running (another instance or the next start runs them), close, exit.
 */
function onShutdown(app: QuarryApp, stopHost: (graceMs: number) => Promise<void>): void {
  let stopping = false;
  const shutdown = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    const graceMs = app.config.shutdownGraceMs;
    app.logger.info({ signal, graceMs }, 'shutting down');
    const force = setTimeout(() => process.exit(1), graceMs + CLOSE_MARGIN_MS);
    force.unref();
    Promise.all([stopHost(graceMs), app.stopJobs(graceMs)])
      .then(() => app.close())
      .catch((error: unknown) => app.logger.error({ err: error }, 'error during shutdown'))
      .finally(() => {
        clearTimeout(force);
        process.exit(0);
      });
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
}

/**
 * Stops listening at once (a load balancer's next connection goes to
 * another instance), lets requests in flight finish within the grace
 * period, closing keep-alive connections as they fall idle, then closes
 * whatever is left.
 */
async function drainHttp(server: FastifyInstance, graceMs: number): Promise<void> {
  const http = server.server;
  const drained = new Promise<void>((resolve) => http.close(() => resolve()));
  const idleSweep = setInterval(() => http.closeIdleConnections(), 100);
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([drained, new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)))]);
  clearInterval(idleSweep);
  clearTimeout(timer);
  await server.close();
}

export async function runServe(): Promise<number> {
  const app = await createQuarry();
  const server = await buildHttpServer(app);
  const address = await server.listen({ host: app.config.host, port: app.config.port });
  app.logger.info({ address, jobs: app.services.jobs.backend }, `Quarry HTTP API listening on ${address} (OpenAPI: ${address}/api/v1/openapi.json)`);
  onShutdown(app, (graceMs) => drainHttp(server, graceMs));
  return -1;
}

export async function runMcp(): Promise<number> {
  // stdout carries the protocol: anything a library prints with console.log goes to stderr instead.
  console.log = console.error;
  console.info = console.error;
  console.debug = console.error;
  const app = await createQuarry();
  const server = await serveMcpOverStdio(app);
  onShutdown(app, () => server.close());
  process.stdin.once('end', () => process.kill(process.pid, 'SIGTERM'));
  return -1;
}
