import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../logger.js';
import { startLocalServer, testPolicy, type LocalServer } from './fixtures/local-server.js';
import { OutboundClient } from './outbound-client.js';
import type { OutboundPolicy } from './types.js';

const servers: LocalServer[] = [];
const clients: OutboundClient[] = [];

async function serve(handler: Parameters<typeof startLocalServer>[0]): Promise<LocalServer> {
  const server = await startLocalServer(handler);
  servers.push(server);
  return server;
}

function client(server: LocalServer, overrides: Partial<OutboundPolicy> = {}): OutboundClient {
  const created = new OutboundClient(
    testPolicy({ allowHosts: [`127.0.0.1:${server.port}`], ...overrides }),
    silentLogger(),
  );
  clients.push(created);
  return created;
}

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe('OutboundClient', () => {
  it('sends the user:password of a URL as HTTP Basic authentication, and keeps it from another origin on a redirect', async () => {
    const seen: Array<{ path: string; authorization: string | undefined }> = [];
    const other = await serve((request, response) => {
      seen.push({ path: `other${request.url}`, authorization: request.headers.authorization });
      response.end('elsewhere');
    });
    const server = await serve((request, response) => {
      seen.push({ path: request.url ?? '', authorization: request.headers.authorization });
      if (request.url === '/away') response.writeHead(302, { location: `${other.origin}/landing` }).end();
      else response.end('ok');
    });
    const http = client(server, { allowHosts: [`127.0.0.1:${server.port}`, `127.0.0.1:${other.port}`] });
    const withCredentials = (path: string) => `http://al%40ice:p%3Ass@127.0.0.1:${server.port}${path}`;
    expect(
      (await http.fetch({ url: withCredentials('/hook'), method: 'POST', body: '{}', purpose: 'webhook' })).status,
    ).toBe(200);
    await http.fetch({ url: withCredentials('/away'), purpose: 'page' });
    const basic = `Basic ${Buffer.from('al@ice:p:ss').toString('base64')}`;
    expect(seen).toEqual([
      { path: '/hook', authorization: basic },
      { path: '/away', authorization: basic },
      { path: 'other/landing', authorization: undefined },
    ]);
  });

  it('times out with TIMEOUT', async () => {
    const server = await serve(() => undefined); // never answers
    const started = Date.now();
    await expect(client(server).fetch({ url: server.origin, purpose: 'engine', timeoutMs: 200 })).rejects.toMatchObject(
      { code: 'TIMEOUT' },
    );
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('gives CANCELLED quickly when the caller aborts', async () => {
    const server = await serve(() => undefined);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const started = Date.now();
    await expect(
      client(server).fetch({ url: server.origin, purpose: 'engine', timeoutMs: 10_000, signal: controller.signal }),
    ).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('gives CANCELLED during a retry backoff without retrying again', async () => {
    const server = await serve((_request, response) => {
      response.statusCode = 503;
      response.end();
    });
    const controller = new AbortController();
    const pending = client(server).fetch({
      url: server.origin,
      purpose: 'engine',
      retries: 3,
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 100);
    await expect(pending).rejects.toMatchObject({ code: 'CANCELLED' });
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(server.requests).toHaveLength(1);
  });

  it('retries on 503 and then succeeds', async () => {
    const server = await serve((_request, response) => {
      response.statusCode = server.requests.length <= 2 ? 503 : 200;
      response.end(`attempt ${server.requests.length}`);
    });
    const response = await client(server).fetch({ url: server.origin, purpose: 'engine', retries: 2 });
    expect(response.status).toBe(200);
    expect(response.body).toBe('attempt 3');
    expect(server.requests).toHaveLength(3);
  });

  it('retries after a network error', async () => {
    const server = await serve((request, response) => {
      if (server.requests.length === 1) request.socket.destroy();
      else response.end('second time lucky');
    });
    const response = await client(server).fetch({ url: server.origin, purpose: 'engine', retries: 1 });
    expect(response.body).toBe('second time lucky');
  });

  it('reports UNREACHABLE when retries run out on network errors', async () => {
    const server = await serve((request) => request.socket.destroy());
    await expect(client(server).fetch({ url: server.origin, purpose: 'engine', retries: 1 })).rejects.toMatchObject({
      code: 'UNREACHABLE',
    });
    expect(server.requests).toHaveLength(2);
  });

  it('does not retry a 404', async () => {
    const server = await serve((_request, response) => {
      response.statusCode = 404;
      response.end('nope');
    });
    const response = await client(server).fetch({ url: server.origin, purpose: 'engine', retries: 3 });
    expect(response.status).toBe(404);
    expect(server.requests).toHaveLength(1);
  });

  it('refuses a body larger than the cap with RESPONSE_TOO_LARGE', async () => {
    const server = await serve((_request, response) => {
      response.write(Buffer.alloc(64 * 1024, 'a'));
      response.end(Buffer.alloc(64 * 1024, 'a'));
    });
    const outbound = client(server, { maxResponseBytes: 16 * 1024 });
    await expect(outbound.fetch({ url: server.origin, purpose: 'page' })).rejects.toMatchObject({
      code: 'RESPONSE_TOO_LARGE',
    });
    const small = await outbound.fetch({ url: server.origin, purpose: 'page', maxBytes: 200 * 1024 });
    expect(small.bytes.byteLength).toBe(128 * 1024);
  });

  it('caps the decompressed size, not the compressed one', async () => {
    const server = await serve((_request, response) => {
      response.writeHead(200, { 'content-encoding': 'gzip', 'content-type': 'text/plain' });
      response.end(gzipSync(Buffer.alloc(512 * 1024, 'z')));
    });
    const outbound = client(server, { maxResponseBytes: 64 * 1024 });
    await expect(outbound.fetch({ url: server.origin, purpose: 'page' })).rejects.toMatchObject({
      code: 'RESPONSE_TOO_LARGE',
    });
  });

  it('decompresses gzip bodies', async () => {
    const server = await serve((_request, response) => {
      response.writeHead(200, { 'content-encoding': 'gzip', 'content-type': 'text/plain; charset=utf-8' });
      response.end(gzipSync('squeezed ✓'));
    });
    const response = await client(server).fetch({ url: server.origin, purpose: 'page' });
    expect(response.body).toBe('squeezed ✓');
  });

  it('keeps at most perHostConcurrency requests in flight to one host', async () => {
    let inFlight = 0;
    let most = 0;
    const server = await serve(async (_request, response) => {
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 80));
      inFlight--;
      response.end('done');
    });
    const outbound = client(server, { perHostConcurrency: 2 });
    const responses = await Promise.all(
      Array.from({ length: 6 }, (_, index) => outbound.fetch({ url: `${server.origin}/${index}`, purpose: 'engine' })),
    );
    expect(responses.every((response) => response.body === 'done')).toBe(true);
    expect(most).toBe(2);
  });

  it('decodes a latin-1 page by its Content-Type charset or its <meta charset>', async () => {
    const server = await serve((request, response) => {
      const page = Buffer.from(
        '<html><head><meta charset="iso-8859-1"></head><body>Café, naïve, 5 €uro</body></html>',
        'latin1',
      );
      response.setHeader('content-type', request.url === '/header' ? 'text/html; charset=ISO-8859-1' : 'text/html');
      response.end(page);
    });
    const outbound = client(server);
    for (const path of ['/header', '/meta']) {
      const response = await outbound.fetch({ url: `${server.origin}${path}`, purpose: 'page' });
      expect(response.body).toContain('Café, naïve');
    }
  });

  it('sends the policy user agent unless the request sets one', async () => {
    const agents: string[] = [];
    const server = await serve((request, response) => {
      agents.push(request.headers['user-agent'] ?? '');
      response.end();
    });
    const outbound = client(server);
    await outbound.fetch({ url: server.origin, purpose: 'engine' });
    await outbound.fetch({ url: server.origin, purpose: 'engine', headers: { 'User-Agent': 'Custom/1.0' } });
    expect(agents).toEqual([testPolicy().userAgent, 'Custom/1.0']);
  });

  it('turns a POST into a GET after a 303 and drops credentials across origins', async () => {
    const other = await serve((request, response) => {
      response.end(`${request.method} auth=${request.headers.authorization ?? 'none'}`);
    });
    const server = await serve((_request, response) => {
      response.writeHead(303, { location: `${other.origin}/result` });
      response.end();
    });
    const outbound = client(server, { allowHosts: [`127.0.0.1:${server.port}`, `127.0.0.1:${other.port}`] });
    const response = await outbound.fetch({
      url: server.origin,
      method: 'POST',
      body: 'q=1',
      headers: { authorization: 'Bearer secret', 'content-type': 'application/x-www-form-urlencoded' },
      purpose: 'engine',
    });
    expect(response.body).toBe('GET auth=none');
    expect(response.url).toBe(`${other.origin}/result`);
  });

  it('stops after maxRedirects', async () => {
    const server = await serve((_request, response) => {
      response.writeHead(302, { location: `/again${server.requests.length}` });
      response.end();
    });
    await expect(
      client(server, { maxRedirects: 3 }).fetch({ url: server.origin, purpose: 'page' }),
    ).rejects.toMatchObject({
      code: 'UPSTREAM_FAILED',
    });
    expect(server.requests).toHaveLength(4);
  });
});
