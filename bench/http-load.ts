/**
 * The client side of a throughput bench, run as its own process so that the
 * server's process spends its CPU on serving alone (mcp-start.bench.ts forks
 * it). Sends one request again and again from C concurrent loops for S
 * seconds and prints its run on stdout (load-client-protocol.ts).
 *
 * It speaks node:http over kept-alive sockets and reads each body to its end
 * without decoding it, as load generators do: undici's fetch cost more CPU
 * per request than the server on a 2-core machine, so it, not the server,
 * set the rate.
 *
 * Arguments and output: load-client-protocol.ts.
 */
import { Agent, request } from 'node:http';
import { clientArguments, reportClientRun } from './load-client-protocol.js';

const { url, seconds, concurrency, body, headers } = clientArguments();
const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
const payload = body === undefined ? undefined : Buffer.from(body);
const requestHeaders: Record<string, string | number> = {
  ...headers,
  ...(payload ? { 'content-length': payload.length } : {}),
};

/** One request, its body read to the end: whether it answered 2xx. */
function once(): Promise<boolean> {
  return new Promise((resolve) => {
    const outgoing = request(url, { agent, method: payload ? 'POST' : 'GET', headers: requestHeaders }, (response) => {
      response.on('data', () => {});
      response.on('end', () => resolve((response.statusCode ?? 0) >= 200 && (response.statusCode ?? 0) < 300));
      response.on('error', () => resolve(false));
    });
    outgoing.on('error', () => resolve(false));
    outgoing.end(payload);
  });
}

let done = 0;
let failed = 0;
const started = performance.now();
const until = started + seconds * 1000;
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (performance.now() < until) {
      if (await once()) done++;
      else failed++;
    }
  }),
);
agent.destroy();
reportClientRun(done, failed, started);
