/**
 * The server-bound client of a throughput bench: autocannon (the load
 * generator of fastify's own benchmarks) in a process of its own, with the
 * arguments and the one line of JSON on stdout that http-load.ts has.
 *
 * node:http's client costs more CPU per request than a trivial route costs
 * the server, so on a machine with two cores it, not the server, sets
 * /healthz's rate. autocannon writes prebuilt requests on raw sockets and
 * costs a third (/healthz) to a half (a cached search) as much per request,
 * so the server's core is what saturates and the rate is the server's
 * capacity.
 *
 * Arguments: <url> <seconds> <concurrency> [<JSON body> <JSON headers>] (a body means POST).
 */
import autocannon from 'autocannon';

const [url, seconds, concurrency, body, headers] = process.argv.slice(2) as [string, string, string, string?, string?];
const started = performance.now();
const result = await autocannon({
  url,
  duration: Number(seconds),
  connections: Number(concurrency),
  method: body === undefined ? 'GET' : 'POST',
  ...(body === undefined ? {} : { body, headers: JSON.parse(headers ?? '{}') as Record<string, string> }),
});
const cpu = process.cpuUsage();
process.stdout.write(
  JSON.stringify({
    done: result['2xx'],
    failed: result.non2xx + result.errors + result.timeouts,
    seconds: (performance.now() - started) / 1000,
    clientCpuMs: (cpu.user + cpu.system) / 1000,
  }),
);
