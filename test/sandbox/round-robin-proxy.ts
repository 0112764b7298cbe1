/**
 * A load balancer for tests, behaving like the nginx example in the README
 * ("Several instances"): round robin over the backends, a new upstream
 * connection per request, and the next backend when a backend refuses the
 * connection (nothing was sent) or answers 503. A request that was sent and
 * then lost (connection reset, no answer) is not sent again — POSTs are not
 * idempotent — and answers 502: that is a lost request.
 */
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RoundRobinProxy {
  url: string;
  /** Requests passed to the next backend, by reason. */
  retries: Map<string, number>;
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
    const upstream = request(target, { method: req.method, headers: { ...req.headers, host: target.host, connection: 'close' }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 502, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    upstream.on('error', reject);
    upstream.end(body);
  });
}

export async function startRoundRobinProxy(backends: string[], tries = 6): Promise<RoundRobinProxy> {
  let next = 0;
  const retries = new Map<string, number>();
  const count = (reason: string) => retries.set(reason, (retries.get(reason) ?? 0) + 1);
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    let last = 'no backend tried';
    for (let tried = 0; tried < tries; tried++) {
      const backend = backends[next++ % backends.length]!;
      try {
        const answer = await forward(backend, req, body);
        if (answer.status === 503) {
          count('503');
          last = `503 from ${backend}`;
          continue;
        }
        const { connection: _connection, 'transfer-encoding': _encoding, ...headers } = answer.headers;
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
    res.writeHead(502, { 'content-type': 'text/plain' }).end(`no backend answered: ${last}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    retries,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
