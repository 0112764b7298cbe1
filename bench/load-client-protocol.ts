/**
 * What a throughput client process (http-load.ts, autocannon-load.ts) and
 * measureThroughput (load-client.ts) agree on: the arguments it is started
 * with and the one line of JSON it prints when done.
 */

export interface ClientArguments {
  url: string;
  seconds: number;
  concurrency: number;
  /** With a body the request is a POST. */
  body?: string;
  headers: Record<string, string>;
}

export interface ClientRun {
  done: number;
  failed: number;
  seconds: number;
  /** The client's own CPU: on a machine with few cores the client may be what limits the rate. */
  clientCpuMs: number;
}

/** The arguments: <url> <seconds> <concurrency> [<JSON body> <JSON headers>]. */
export function clientArguments(argv: string[] = process.argv.slice(2)): ClientArguments {
  const [url, seconds, concurrency, body, headers] = argv as [string, string, string, string?, string?];
  return {
    url,
    seconds: Number(seconds),
    concurrency: Number(concurrency),
    ...(body === undefined ? {} : { body }),
    headers: JSON.parse(headers ?? '{}') as Record<string, string>,
  };
}

/** The arguments of a client process for this load. */
export function clientArgv(
  url: string,
  seconds: number,
  concurrency: number,
  post?: { body: string; headers: Record<string, string> },
): string[] {
  return [url, String(seconds), String(concurrency), ...(post ? [post.body, JSON.stringify(post.headers)] : [])];
}

/** Prints the run's line, with this process's CPU time so far. */
export function reportClientRun(done: number, failed: number, startedAt: number): void {
  const cpu = process.cpuUsage();
  const run: ClientRun = {
    done,
    failed,
    seconds: (performance.now() - startedAt) / 1000,
    clientCpuMs: (cpu.user + cpu.system) / 1000,
  };
  process.stdout.write(JSON.stringify(run));
}
