import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../core/errors.js';
import { silentLogger } from '../../core/logger.js';
import { signWebhook, verifyWebhookSignature, WebhookSender, type WebhookRequest } from './webhook-sender.js';

const SECRET = 'test-secret';

interface Delivery {
  headers: IncomingHttpHeaders;
  body: string;
  verified: boolean;
  at: number;
}

/** A local receiver that answers each path with a scripted list of statuses (the last repeats). */
let server: Server;
let baseUrl: string;
const scripts = new Map<string, number[]>();
const received = new Map<string, Delivery[]>();

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const path = req.url ?? '/';
      const list = received.get(path) ?? [];
      list.push({ headers: req.headers, body, verified: verifyWebhookSignature(SECRET, req.headers, body), at: performance.now() });
      received.set(path, list);
      const script = scripts.get(path) ?? [200];
      const status = script.length > 1 ? script.shift()! : script[0]!;
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  scripts.clear();
  received.clear();
});

/** Stands in for OutboundClient.fetch. */
const requests: WebhookRequest[] = [];
async function send(request: WebhookRequest): Promise<{ status: number }> {
  requests.push(request);
  const response = await fetch(request.url, { method: request.method, headers: request.headers, body: request.body, signal: request.signal ?? null });
  await response.arrayBuffer();
  return { status: response.status };
}

function sender(options: Partial<{ maxAttempts: number; backoffMs: number[] }> = {}, sendFn = send): WebhookSender {
  return new WebhookSender(sendFn, { secret: SECRET, maxAttempts: options.maxAttempts ?? 4, backoffMs: options.backoffMs ?? [10, 20] }, silentLogger());
}

describe('WebhookSender', () => {
  it('delivers a signed JSON payload that the receiver can verify', async () => {
    const payload = { event: 'search.completed', request_id: 'req_1', status: 'completed', result: { n: 1 } };
    const outcome = await sender().deliver(`${baseUrl}/ok`, 'search.completed', payload);
    expect(outcome).toEqual({ delivered: true, attempts: 1 });
    const [delivery] = received.get('/ok')!;
    expect(delivery!.verified).toBe(true);
    expect(JSON.parse(delivery!.body)).toEqual(payload);
    expect(delivery!.headers['content-type']).toBe('application/json');
    expect(delivery!.headers['x-quarry-event']).toBe('search.completed');
    expect(delivery!.headers['x-quarry-delivery']).toMatch(/^[0-9a-f-]{36}$/);
    expect(Number(delivery!.headers['x-quarry-timestamp'])).toBeCloseTo(Date.now() / 1000, -1);
    expect(requests.at(-1)).toMatchObject({ purpose: 'webhook', retries: 0, method: 'POST' });
  });

  it('retries after two 500s following the backoff schedule, with one delivery id', async () => {
    scripts.set('/flaky', [500, 500, 200]);
    const outcome = await sender({ backoffMs: [60, 120] }).deliver(`${baseUrl}/flaky`, 'search.completed', { a: 1 });
    expect(outcome).toEqual({ delivered: true, attempts: 3 });
    const deliveries = received.get('/flaky')!;
    expect(deliveries).toHaveLength(3);
    expect(deliveries.every((d) => d.verified)).toBe(true);
    expect(new Set(deliveries.map((d) => d.headers['x-quarry-delivery'])).size).toBe(1);
    expect(deliveries[1]!.at - deliveries[0]!.at).toBeGreaterThanOrEqual(55);
    expect(deliveries[2]!.at - deliveries[1]!.at).toBeGreaterThanOrEqual(115);
  });

  it('does not retry a 400', async () => {
    scripts.set('/refuses', [400]);
    const outcome = await sender().deliver(`${baseUrl}/refuses`, 'search.failed', {});
    expect(outcome).toEqual({ delivered: false, attempts: 1, lastError: 'HTTP 400' });
    expect(received.get('/refuses')).toHaveLength(1);
  });

  it('retries 429 and 408', async () => {
    scripts.set('/busy', [429, 408, 204]);
    const outcome = await sender().deliver(`${baseUrl}/busy`, 'search.completed', {});
    expect(outcome).toEqual({ delivered: true, attempts: 3 });
  });

  it('gives up after maxAttempts', async () => {
    scripts.set('/down', [503]);
    const outcome = await sender({ maxAttempts: 3, backoffMs: [5] }).deliver(`${baseUrl}/down`, 'search.completed', {});
    expect(outcome).toEqual({ delivered: false, attempts: 3, lastError: 'HTTP 503' });
    expect(received.get('/down')).toHaveLength(3);
  });

  it('retries network errors but not a refusal of the outbound policy', async () => {
    let calls = 0;
    const unreachable = sender({ maxAttempts: 3, backoffMs: [5] }, async () => {
      calls++;
      throw new AppError('UPSTREAM_FAILED', 'connection refused');
    });
    const outcome = await unreachable.deliver('http://example.invalid/', 'e', {});
    expect(outcome).toEqual({ delivered: false, attempts: 3, lastError: 'UPSTREAM_FAILED: connection refused' });
    expect(calls).toBe(3);

    calls = 0;
    const forbidden = sender({ maxAttempts: 3, backoffMs: [5] }, async () => {
      calls++;
      throw new AppError('FORBIDDEN_ADDRESS', 'private address');
    });
    expect((await forbidden.deliver('http://10.0.0.1/', 'e', {})).attempts).toBe(1);
    expect(calls).toBe(1);
  });

  it('stops retrying when its signal is aborted', async () => {
    scripts.set('/slow-down', [500]);
    const controller = new AbortController();
    const pending = sender({ maxAttempts: 5, backoffMs: [10_000] }).deliver(`${baseUrl}/slow-down`, 'e', {}, controller.signal);
    await new Promise((resolve) => setTimeout(resolve, 100));
    controller.abort();
    const outcome = await pending;
    expect(outcome.delivered).toBe(false);
    expect(outcome.attempts).toBe(1);
  });
});

describe('verifyWebhookSignature', () => {
  const body = '{"x":1}';
  const now = Math.floor(Date.now() / 1000);
  const headers = (timestamp: number, secret = SECRET, signedBody = body) => ({
    'X-Quarry-Timestamp': String(timestamp),
    'X-Quarry-Signature': signWebhook(secret, timestamp, signedBody),
  });

  it('accepts a fresh, matching signature with any header case', () => {
    expect(verifyWebhookSignature(SECRET, headers(now), body)).toBe(true);
  });

  it('rejects another secret, a changed body, an old timestamp and missing headers', () => {
    expect(verifyWebhookSignature(SECRET, headers(now, 'other'), body)).toBe(false);
    expect(verifyWebhookSignature(SECRET, headers(now), '{"x":2}')).toBe(false);
    expect(verifyWebhookSignature(SECRET, headers(now - 301), body)).toBe(false);
    expect(verifyWebhookSignature(SECRET, headers(now - 301), body, 600)).toBe(true);
    expect(verifyWebhookSignature(SECRET, {}, body)).toBe(false);
    expect(verifyWebhookSignature(SECRET, { ...headers(now), 'X-Quarry-Signature': 'sha256=00' }, body)).toBe(false);
  });
});
