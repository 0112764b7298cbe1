import { createServer } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../core/logger.js';
import { startLocalServer, testPolicy, type LocalServer } from '../../core/http/fixtures/local-server.js';
import { OutboundClient } from '../../core/http/outbound-client.js';
import { GuardingProxy } from './guarding-proxy.js';
import { until } from '../../test/sandbox/until.js';

const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setup(): Promise<{ proxyPort: number; allowed: LocalServer; refused: LocalServer }> {
  const allowed = await startLocalServer((request, response) => response.end(`allowed ${request.url}`));
  const refused = await startLocalServer((_request, response) => response.end('secret'));
  const outbound = new OutboundClient(testPolicy({ allowHosts: [`127.0.0.1:${allowed.port}`] }), silentLogger());
  const proxy = new GuardingProxy(outbound, silentLogger());
  const proxyUrl = await proxy.start();
  cleanups.push(
    allowed.close,
    refused.close,
    () => outbound.close(),
    () => proxy.close(),
  );
  return { proxyPort: Number(new URL(proxyUrl).port), allowed, refused };
}

/** Sends raw bytes to the proxy and collects everything it answers until it closes or goes quiet. */
function exchange(port: number, text: string): Promise<string> {
  return new Promise((resolve) => {
    const socket: Socket = connect(port, '127.0.0.1', () => socket.write(text));
    let answer = '';
    const finish = (): void => {
      socket.destroy();
      resolve(answer);
    };
    let quiet = setTimeout(finish, 1000);
    socket.on('data', (chunk) => {
      answer += chunk.toString('latin1');
      clearTimeout(quiet);
      quiet = setTimeout(finish, 200);
    });
    socket.on('close', finish);
    socket.on('error', finish);
  });
}

describe('GuardingProxy', () => {
  it('drops the upstream connection when the browser gives up on an upstream that never answers', async () => {
    // An upstream that takes requests and never answers; it counts the connections still open to it.
    const open = new Set<Socket>();
    let asked = false;
    const hanging = createServer(() => {
      asked = true;
    });
    hanging.on('connection', (socket: Socket) => {
      open.add(socket);
      socket.once('close', () => open.delete(socket));
    });
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    const port = (hanging.address() as AddressInfo).port;
    const outbound = new OutboundClient(testPolicy({ allowHosts: [`127.0.0.1:${port}`] }), silentLogger());
    const proxy = new GuardingProxy(outbound, silentLogger());
    const proxyPort = Number(new URL(await proxy.start()).port);
    cleanups.push(
      () => new Promise<void>((resolve) => (hanging.closeAllConnections(), hanging.close(() => resolve()))),
      () => outbound.close(),
      () => proxy.close(),
    );

    const browser = connect(proxyPort, '127.0.0.1', () =>
      browser.write(`GET http://127.0.0.1:${port}/slow HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`),
    );
    browser.on('error', () => undefined);
    await until('the upstream to be asked', async () => asked, 2000, 20);
    expect(open.size).toBe(1);
    // The page is closed: its connection to the proxy goes, and so must the proxy's to the upstream.
    browser.destroy();
    await until('the upstream connection to close', async () => open.size === 0, 1000, 20);
  });

  it('forwards plain HTTP to an allowed host and drops a refused one', async () => {
    const { proxyPort, allowed, refused } = await setup();
    const ok = await exchange(
      proxyPort,
      `GET ${allowed.origin}/x HTTP/1.1\r\nHost: 127.0.0.1:${allowed.port}\r\nConnection: close\r\n\r\n`,
    );
    expect(ok).toMatch(/^HTTP\/1\.1 200/);
    expect(ok).toContain('allowed /x');
    const no = await exchange(proxyPort, `GET ${refused.origin}/ HTTP/1.1\r\nHost: 127.0.0.1:${refused.port}\r\n\r\n`);
    expect(no).toBe('');
    expect(refused.requests).toEqual([]);
  });

  it('opens CONNECT tunnels only to allowed addresses', async () => {
    const { proxyPort, allowed, refused } = await setup();
    const tunnelled = await exchange(
      proxyPort,
      `CONNECT 127.0.0.1:${allowed.port} HTTP/1.1\r\nHost: 127.0.0.1:${allowed.port}\r\n\r\nGET /through HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
    );
    expect(tunnelled).toMatch(/^HTTP\/1\.1 200 Connection Established/);
    expect(tunnelled).toContain('allowed /through');
    const refusedTunnel = await exchange(proxyPort, `CONNECT 127.0.0.1:${refused.port} HTTP/1.1\r\n\r\n`);
    expect(refusedTunnel).toMatch(/^HTTP\/1\.1 403/);
    const byName = await exchange(proxyPort, `CONNECT localhost:${allowed.port} HTTP/1.1\r\n\r\n`);
    expect(byName).toMatch(/^HTTP\/1\.1 403/);
    expect(refused.requests).toEqual([]);
  });
});
