import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../logger.js';
import { startLocalServer, testPolicy, type LocalServer } from './fixtures/local-server.js';
import { OutboundClient } from './outbound-client.js';
import type { OutboundPolicy } from './types.js';

let allowed: LocalServer;
let refused: LocalServer;
const clients: OutboundClient[] = [];

function client(overrides: Partial<OutboundPolicy> = {}): OutboundClient {
  const created = new OutboundClient(testPolicy(overrides), silentLogger());
  clients.push(created);
  return created;
}

beforeEach(async () => {
  refused = await startLocalServer((_request, response) => response.end('secret'));
  allowed = await startLocalServer((request, response) => {
    const target = new URL(request.url ?? '/', 'http://x').searchParams.get('to');
    if (target) {
      response.writeHead(302, { location: target });
      response.end();
      return;
    }
    response.end('hello');
  });
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all([allowed.close(), refused.close()]);
});

describe('OutboundClient address policy', () => {
  it('refuses a loopback URL by default', async () => {
    await expect(client().fetch({ url: `${refused.origin}/`, purpose: 'page' })).rejects.toMatchObject({
      code: 'FORBIDDEN_ADDRESS',
    });
    expect(refused.requests).toHaveLength(0);
  });

  it('allows loopback with allowPrivateNetwork', async () => {
    const response = await client({ allowPrivateNetwork: true }).fetch({ url: `${refused.origin}/`, purpose: 'page' });
    expect(response.status).toBe(200);
    expect(response.body).toBe('secret');
  });

  it('allows only the listed host:port with allowHosts', async () => {
    const outbound = client({ allowHosts: [`127.0.0.1:${allowed.port}`] });
    const response = await outbound.fetch({ url: `${allowed.origin}/`, purpose: 'page' });
    expect(response.body).toBe('hello');
    await expect(outbound.fetch({ url: `${refused.origin}/`, purpose: 'page' })).rejects.toMatchObject({
      code: 'FORBIDDEN_ADDRESS',
    });
    expect(refused.requests).toHaveLength(0);
  });

  it('refuses a redirect hop from an allowed host to a refused loopback port', async () => {
    const outbound = client({ allowHosts: [`127.0.0.1:${allowed.port}`] });
    for (const target of [`${refused.origin}/`, `http://localhost:${refused.port}/`]) {
      const url = `${allowed.origin}/go?to=${encodeURIComponent(target)}`;
      await expect(outbound.fetch({ url, purpose: 'page' })).rejects.toMatchObject({ code: 'FORBIDDEN_ADDRESS' });
    }
    expect(allowed.requests).toHaveLength(2);
    expect(refused.requests).toHaveLength(0);
  });

  it('follows a redirect between allowed places and reports the final URL', async () => {
    const outbound = client({ allowHosts: [`127.0.0.1:${allowed.port}`] });
    const response = await outbound.fetch({ url: `${allowed.origin}/go?to=%2Fdone`, purpose: 'page' });
    expect(response.status).toBe(200);
    expect(response.url).toBe(`${allowed.origin}/done`);
  });

  it('refuses a host name that resolves to loopback, after DNS', async () => {
    // 127.0.0.1:<port> is allowed, but the name "localhost" is not on the list.
    const outbound = client({ allowHosts: [`127.0.0.1:${allowed.port}`] });
    const error = await outbound
      .fetch({ url: `http://localhost:${allowed.port}/`, purpose: 'page' })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'FORBIDDEN_ADDRESS' });
    expect((error as { details: { address: string } }).details.address).toMatch(/^(127\.0\.0\.1|::1)$/);
    expect(allowed.requests).toHaveLength(0);
    await expect(outbound.checkUrl(`http://localhost:${allowed.port}/`)).rejects.toMatchObject({
      code: 'FORBIDDEN_ADDRESS',
    });
  });

  it('lets a listed host name through', async () => {
    const outbound = client({ allowHosts: [`localhost:${allowed.port}`] });
    const response = await outbound.fetch({ url: `http://localhost:${allowed.port}/`, purpose: 'page' });
    expect(response.body).toBe('hello');
  });

  it('checkUrl applies the same rules without fetching', async () => {
    const outbound = client({ allowHosts: [`127.0.0.1:${allowed.port}`] });
    await expect(outbound.checkUrl(`${allowed.origin}/x`)).resolves.toBeUndefined();
    await expect(outbound.checkUrl(`${refused.origin}/x`)).rejects.toMatchObject({ code: 'FORBIDDEN_ADDRESS' });
    await expect(outbound.checkUrl(`ws://127.0.0.1:${refused.port}/`)).rejects.toMatchObject({
      code: 'FORBIDDEN_ADDRESS',
    });
    await expect(outbound.checkUrl('http://169.254.169.254/latest/meta-data/')).rejects.toMatchObject({
      code: 'FORBIDDEN_ADDRESS',
    });
    await expect(outbound.checkUrl('file:///etc/passwd')).rejects.toMatchObject({ code: 'FORBIDDEN_ADDRESS' });
    await expect(outbound.checkUrl('data:text/plain,hi')).resolves.toBeUndefined();
    expect(allowed.requests).toHaveLength(0);
  });
});
