/**
 * npm run bench:mcp-start — how fast the MCP hosts answer.
 *
 * 1. `quarry mcp` (stdio): time from spawning the process to the answer to
 *    its `initialize`, median of N starts, beside `node -e ''` spawned the
 *    same way (to exit), and the ratio — the machine's load shows in both.
 *    Also the time to the first `tools/list` answer (the app loaded).
 * 2. `tools/list` over Streamable HTTP (2026-07-28, one instance in this
 *    process): requests per second with C concurrent clients (in a child
 *    process) for S seconds, and the server's CPU time per request, beside
 *    `GET /healthz` on the same server.
 *
 * Options: --starts N (default 10), --seconds S (default 5), --concurrency C (default 16), --only stdio|http.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createQuarry } from '../app/create-quarry.js';
import { PACKAGE_ROOT } from '../core/paths.js';
import { buildHttpServer } from '../hosts/http/server.js';
import { measureThroughput } from './load-client.js';

const { values } = parseArgs({
  options: {
    starts: { type: 'string', default: '10' },
    seconds: { type: 'string', default: '5' },
    concurrency: { type: 'string', default: '16' },
    only: { type: 'string' },
  },
});
const STARTS = Number(values.starts);
const SECONDS = Number(values.seconds);
const CONCURRENCY = Number(values.concurrency);
const KEY = 'bench-key-0123456789';
const MAIN = join(PACKAGE_ROOT, 'dist/hosts/cli/main.js');

const median = (xs: number[]): number =>
  xs.length === 0 ? Number.NaN : [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function nodeNothing(): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  return new Promise((resolve) => child.once('exit', () => resolve(performance.now() - started)));
}

/** Milliseconds to the initialize answer and to the tools/list answer. */
function mcpStart(dataDir: string): Promise<{ initialize: number; toolsList: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, [MAIN, 'mcp'], {
    cwd: dataDir,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: dataDir,
      QUARRY_DATA_DIR: join(dataDir, 'data'),
      QUARRY_LOG_LEVEL: 'warn',
    },
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
  return new Promise((resolve, reject) => {
    let initialize = 0;
    let buffered = '';
    child.once('exit', (code) => reject(new Error(`quarry mcp exited (${code}) before answering`)));
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
        const message = JSON.parse(buffered.slice(0, end)) as { id?: number };
        buffered = buffered.slice(end + 1);
        if (message.id === 1) {
          initialize = performance.now() - started;
          send({ jsonrpc: '2.0', method: 'notifications/initialized' });
          send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
        } else if (message.id === 2) {
          const toolsList = performance.now() - started;
          child.removeAllListeners('exit');
          // The next start begins once this one has gone (it may still be loading the app: that is not timed).
          child.once('exit', () => resolve({ initialize, toolsList }));
          child.stdin.end();
        }
      }
    });
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
    });
  });
}

async function stdioStarts(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'quarry-bench-mcp-'));
  try {
    const baseline: number[] = [];
    const initialize: number[] = [];
    const toolsList: number[] = [];
    for (let i = 0; i < STARTS; i++) {
      baseline.push(await nodeNothing());
      const run = await mcpStart(dataDir);
      initialize.push(run.initialize);
      toolsList.push(run.toolsList);
    }
    const ratio = median(initialize) / median(baseline);
    console.log(
      `quarry mcp, ${STARTS} starts (median, load ${loadavg()[0]!.toFixed(1)}): initialize answered in ${median(initialize).toFixed(0)} ms; node -e '' ${median(baseline).toFixed(0)} ms; ratio ${ratio.toFixed(2)}`,
    );
    // The first start has no tool list from a previous one and waits for the app; later ones answer from the snapshot.
    console.log(
      `  tools/list answered: first start ${toolsList[0]!.toFixed(0)} ms, median of the others ${median(toolsList.slice(1)).toFixed(0)} ms (${(median(toolsList.slice(1)) / median(baseline)).toFixed(2)} × node -e '')`,
    );
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function httpToolsList(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'quarry-bench-http-'));
  const app = await createQuarry({
    env: {},
    overrides: { dataDir, apiKeys: [KEY], logLevel: 'silent', rateLimitPerMinute: 10_000_000 },
  });
  const server = await buildHttpServer(app, { apiKeys: [KEY] });
  const url = `${await server.listen({ host: '127.0.0.1', port: 0 })}/mcp`;
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/list',
    params: {
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': {},
      },
    },
  });
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'x-api-key': KEY,
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': 'tools/list',
  };
  try {
    const check = await fetch(url, { method: 'POST', headers, body });
    const tools = ((await check.json()) as { result: { tools: unknown[] } }).result.tools.length;
    const list = await measureThroughput(url, SECONDS, CONCURRENCY, { body, headers });
    // The same server's smallest route: what the machine allows at all right now.
    const healthz = await measureThroughput(url.replace(/\/mcp$/, '/healthz'), SECONDS, CONCURRENCY);
    const load = loadavg()[0]!.toFixed(1);
    console.log(
      `tools/list over HTTP (${tools} tools, ${CONCURRENCY} concurrent, ${SECONDS} s, load ${load}): ${list.perSecond.toFixed(0)} requests/s${list.failed ? `, ${list.failed} failed` : ''}, ${list.cpuMsPerRequest.toFixed(2)} ms server CPU each (${(1000 / list.cpuMsPerRequest).toFixed(0)}/s per core); the clients ${list.clientCpuMsPerRequest.toFixed(2)} ms CPU each`,
    );
    console.log(
      `  GET /healthz on the same server: ${healthz.perSecond.toFixed(0)} requests/s, ${healthz.cpuMsPerRequest.toFixed(2)} ms CPU each, the clients ${healthz.clientCpuMsPerRequest.toFixed(2)} ms (ratio ${(list.perSecond / healthz.perSecond).toFixed(2)})`,
    );
  } finally {
    await server.close();
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (values.only !== 'http') await stdioStarts();
if (values.only !== 'stdio') await httpToolsList();
