/**
 * The client side of a throughput bench, run as its own process so that the
 * server's process spends its CPU on serving alone (mcp-start.bench.ts forks
 * it). Sends one request again and again from C concurrent loops for S
 * seconds and prints {"done","failed","seconds","clientCpuMs"} on stdout.
 *
 * Arguments: <url> <seconds> <concurrency> [<JSON body> <JSON headers>] (a body means POST).
 */
const [url, seconds, concurrency, body, headers] = process.argv.slice(2) as [string, string, string, string?, string?];
const init: RequestInit = body ? { method: 'POST', body, headers: JSON.parse(headers ?? '{}') as Record<string, string> } : {};
let done = 0;
let failed = 0;
const started = performance.now();
const until = started + Number(seconds) * 1000;
await Promise.all(
  Array.from({ length: Number(concurrency) }, async () => {
    while (performance.now() < until) {
      const response = await fetch(url, init);
      await response.arrayBuffer();
      if (response.ok) done++;
      else failed++;
    }
  }),
);
// The client's own CPU: on a machine with few cores the clients may be what limits the rate.
const cpu = process.cpuUsage();
process.stdout.write(JSON.stringify({ done, failed, seconds: (performance.now() - started) / 1000, clientCpuMs: (cpu.user + cpu.system) / 1000 }));
