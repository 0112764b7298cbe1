/**
 * Throughput as the benches measure it: CONCURRENCY clients for SECONDS in a
 * child process (bench/http-load.ts), and this process's CPU time per
 * request. With the clients out of the server's process, the rate is what the
 * server serves; on a loaded machine the rate shows the load, the CPU time
 * what serving costs.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../core/paths.js';

export interface LoadResult {
  perSecond: number;
  failed: number;
  /** This (the server's) process's CPU per request. */
  cpuMsPerRequest: number;
  /** The clients' CPU per request: on few cores they may be what limits the rate. */
  clientCpuMsPerRequest: number;
}

export async function measureThroughput(url: string, seconds: number, concurrency: number, post?: { body: string; headers: Record<string, string> }): Promise<LoadResult> {
  const cpu = process.cpuUsage();
  const args = [join(PACKAGE_ROOT, 'dist/bench/http-load.js'), url, String(seconds), String(concurrency), ...(post ? [post.body, JSON.stringify(post.headers)] : [])];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  await new Promise((resolve) => child.once('exit', resolve));
  const used = process.cpuUsage(cpu);
  const { done, failed, seconds: took, clientCpuMs } = JSON.parse(out) as { done: number; failed: number; seconds: number; clientCpuMs: number };
  const requests = Math.max(1, done + failed);
  return { perSecond: done / took, failed, cpuMsPerRequest: (used.user + used.system) / 1000 / requests, clientCpuMsPerRequest: clientCpuMs / requests };
}
