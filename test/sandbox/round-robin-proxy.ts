/**
 * A load balancer for tests, behaving like the HAProxy example in the README
 * ("Several instances"): round robin over the backends whose health check
 * (GET /healthz every 200 ms) answers 200, a new upstream connection per
 * request, and the next backend when a backend refuses the connection
 * (nothing was sent) or answers 503. A request that was sent and then lost
 * (connection reset, no answer) is not sent again — POSTs are not
 * idempotent — and answers 502: that is a lost request.
 */
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RoundRobinProxy {
  url: string;
  /** Requests passed to the next backend, by reason. */
  retries: Map<string, number>;
  /** Requests each backend answered. */
  answeredBy: Map<string, number>;
  /** Why each request answered 502 (no backend answered it). */
  failures: string[];
  /** Times a backend failed its health check and left the rotation. */
  readonly removals: number;
  close(): Promise<void>;
}

interface Upstream {
  status: number;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

function forward(backend: string, req: IncomingMessage, body: Buffer): Promise<Upstream> {
  const target = new URL(req.url ?? '/', backend);
  return new Promise((resolve, reject) => {
    const upstream = request(
      target,
      { method: req.method, headers: { ...req.headers, host: target.host, connection: 'close' }, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 502, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      },
    );
    upstream.on('error', reject);
    upstream.end(body);
  });
}

const HEALTH_INTERVAL_MS = 200;

function healthy(backend: string): Promise<boolean> {
  return new Promise((resolve) => {
    const check = request(new URL('/healthz', backend), { agent: false, timeout: 1000 }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    check.on('error', () => resolve(false));
    check.on('timeout', () => check.destroy());
    check.end();
  });
}

export async function startRoundRobinProxy(backends: string[], tries = 6): Promise<RoundRobinProxy> {
  let next = 0;
  const up = new Set(backends);
  let removals = 0;
  let checking = true;
  const checks = (async () => {
    while (checking) {
      await Promise.all(
        backends.map(async (backend) => {
          if (await healthy(backend)) up.add(backend);
          else if (up.delete(backend)) removals++;
        }),
      );
      await new Promise((resolve) => setTimeout(resolve, HEALTH_INTERVAL_MS));
    }
  })();
  /** The next backend in turn among those up (all of them when none is). */
  const pick = (): string => {
    const candidates = backends.filter((backend) => up.has(backend));
    const pool = candidates.length > 0 ? candidates : backends;
    return pool[next++ % pool.length]!;
  };
  const retries = new Map<string, number>();
  const answeredBy = new Map<string, number>();
  const failures: string[] = [];
  const count = (reason: string) => retries.set(reason, (retries.get(reason) ?? 0) + 1);
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    let last = 'no backend tried';
    for (let tried = 0; tried < tries; tried++) {
      const backend = pick();
      try {
        const answer = await forward(backend, req, body);
        if (answer.status === 503) {
          count('503');
          last = `503 from ${backend}`;
          continue;
        }
        const { connection: _connection, 'transfer-encoding': _encoding, ...headers } = answer.headers;
        answeredBy.set(backend, (answeredBy.get(backend) ?? 0) + 1);
        res.writeHead(answer.status, headers).end(answer.body);
        return;
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
        count(code);
        last = `${code} from ${backend}`;
        if (code !== 'ECONNREFUSED') break;
        // Every backend refusing at once (both restarting): wait a little before the next round.
        if (tried % backends.length === backends.length - 1) await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
    failures.push(`${req.method} ${req.url}: ${last}`);
    res.writeHead(502, { 'content-type': 'text/plain' }).end(`no backend answered: ${last}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    retries,
    answeredBy,
    failures,
    get removals() {
      return removals;
    },
    close: async () => {
      checking = false;
      await checks;
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
