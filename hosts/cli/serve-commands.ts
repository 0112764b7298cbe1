/** quarry serve and quarry mcp: start a host over the core, and stop gracefully on signals. */
import { createQuarry, type QuarryApp } from '../../app/create-quarry.js';
import { buildHttpServer } from '../http/server.js';
import { serveMcpOverStdio } from '../mcp/server.js';

function onShutdown(app: QuarryApp, stop: () => Promise<void>): void {
  let stopping = false;
  const shutdown = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    app.logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    stop()
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

export async function runServe(): Promise<number> {
  const app = await createQuarry();
  const server = await buildHttpServer(app);
  const address = await server.listen({ host: app.config.host, port: app.config.port });
  app.logger.info({ address }, `Quarry HTTP API listening on ${address} (OpenAPI: ${address}/api/v1/openapi.json)`);
  onShutdown(app, () => server.close());
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
