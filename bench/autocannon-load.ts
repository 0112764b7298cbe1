/**
 * The server-bound client of a throughput bench: autocannon (the load
 * generator of fastify's own benchmarks) in a process of its own, started and
 * reporting as http-load.ts is (load-client-protocol.ts).
 *
 * node:http's client costs more CPU per request than a trivial route costs
 * the server, so on a machine with two cores it, not the server, sets
 * /healthz's rate. autocannon writes prebuilt requests on raw sockets and
 * costs a third (/healthz) to a half (a cached search) as much per request,
 * so the server's core is what saturates and the rate is the server's
 * capacity.
 */
import autocannon from 'autocannon';
import { clientArguments, reportClientRun } from './load-client-protocol.js';

const { url, seconds, concurrency, body, headers } = clientArguments();
const started = performance.now();
const result = await autocannon({
  url,
  duration: seconds,
  connections: concurrency,
  method: body === undefined ? 'GET' : 'POST',
  ...(body === undefined ? {} : { body, headers }),
});
reportClientRun(result['2xx'], result.non2xx + result.errors + result.timeouts, started);
