/**
 * quarry mcp: MCP over stdio for a local client. The protocol is served
 * before the app is loaded — importing the services (models, LanceDB, the
 * browser driver, …) takes seconds — so the client's handshake is answered
 * at once, the app loads after that answer, and tools/list and tools/call
 * wait for it. Nothing here may import the app statically.
 */
import type { QuarryApp } from '../../app/create-quarry.js';
import { serveMcpOverStdio } from '../mcp/server.js';
import { onShutdown } from './shutdown.js';

export async function runMcp(): Promise<number> {
  // stdout carries the protocol: anything a library prints with console.log goes to stderr instead.
  console.log = console.error;
  console.info = console.error;
  console.debug = console.error;
  let loading: Promise<QuarryApp> | undefined;
  const load = (): Promise<QuarryApp> =>
    (loading ??= import('../../app/create-quarry.js')
      .then(({ createQuarry }) => createQuarry())
      .then(
        (app) => {
          onShutdown(app, () => server.close());
          return app;
        },
        (error: unknown) => {
          process.stderr.write(`quarry: ${error instanceof Error ? error.message : String(error)}\n`);
          process.exit(1);
        },
      ));
  const server = await serveMcpOverStdio(load);
  // The client closing stdin ends the server: at once when the app never loaded, else by closing it.
  process.stdin.once('end', () => {
    if (!loading) process.exit(0);
    void loading.then(() => process.kill(process.pid, 'SIGTERM'));
  });
  return -1;
}
