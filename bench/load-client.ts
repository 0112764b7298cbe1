/**
 * Throughput as the benches measure it: CONCURRENCY clients for SECONDS in a
 * child process, and this process's CPU time per request. With the clients
 * out of the server's process, the rate is what the server serves; on a
 * loaded machine the rate shows the load, the CPU time what serving costs.
 * Two clients: node:http over kept-alive sockets (http-load.ts), what Node
 * programs use, and autocannon (autocannon-load.ts), light enough that the
 * server saturates first.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../core/paths.js';
import { clientArgv, type ClientRun } from './load-client-protocol.js';

export interface LoadResult {
  perSecond: number;
  failed: number;
  /** This (the server's) process's CPU per request. */
  cpuMsPerRequest: number;
  /** The clients' CPU per request: on few cores they may be what limits the rate. */
  clientCpuMsPerRequest: number;
}

export type LoadClient = 'node-http' | 'autocannon';

const CLIENT_SCRIPTS: Record<LoadClient, string> = {
  'node-http': 'dist/bench/http-load.js',
  autocannon: 'dist/bench/autocannon-load.js',
};

export async function measureThroughput(
  url: string,
  seconds: number,
  concurrency: number,
  post?: { body: string; headers: Record<string, string> },
  client: LoadClient = 'node-http',
): Promise<LoadResult> {
  const cpu = process.cpuUsage();
  const args = [join(PACKAGE_ROOT, CLIENT_SCRIPTS[client]), ...clientArgv(url, seconds, concurrency, post)];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  await new Promise((resolve) => child.once('exit', resolve));
  const used = process.cpuUsage(cpu);
  const { done, failed, seconds: took, clientCpuMs } = JSON.parse(out) as ClientRun;
  const requests = Math.max(1, done + failed);
  return {
    perSecond: done / took,
    failed,
    cpuMsPerRequest: (used.user + used.system) / 1000 / requests,
    clientCpuMsPerRequest: clientCpuMs / requests,
  };
}
