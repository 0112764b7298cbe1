/**
 * Webhook delivery through the job mechanism (embedded backend) and the real
 * outbound client, to a local receiver that verifies every delivery with
 * the `standardwebhooks` package and answers as each test scripts it.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { createHmac } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OutboundClient } from '../../core/http/outbound-client.js';
import { silentLogger } from '../../core/logger.js';
import { embeddedEnv, type JobQueueEnv } from '../jobs/fixtures/job-queue-envs.js';
import type { JobService } from '../jobs/job-service.js';
import { jobMessageId, jobWebhookListener, jobWebhookState } from './job-webhooks.js';
import { generateWebhookSecret, webhookSecretProblem } from './standard-webhooks.js';
import { WEBHOOK_DELIVERY_KIND, WebhookDeliveries, type DeliveryState } from './webhook-deliveries.js';
import { parseRetryAfter } from './webhook-attempt.js';
import { until } from '../../test/sandbox/until.js';

const SECRET = generateWebhookSecret();

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  verified: boolean;
  at: number;
}

/** Per path, the answers to give in turn (the last repeats): a status, [status, headers], or 'hang'. */
type Answer = number | [number, Record<string, string>] | 'hang';
let server: Server;
let port: number;
const scripts = new Map<string, Answer[]>();
const received = new Map<string, Received[]>();
const hanging: Array<() => void> = [];

function verifies(body: string, headers: IncomingHttpHeaders): boolean {
  try {
    new Webhook(SECRET).verify(body, headers as Record<string, string>);
    return true;
  } catch {
    return false;
  }
}

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const path = req.url ?? '/';
      received.set(path, [
        ...(received.get(path) ?? []),
        { headers: req.headers, body, verified: verifies(body, req.headers), at: Date.now() },
      ]);
      const script = scripts.get(path) ?? [200];
      const answer = script.length > 1 ? script.shift()! : script[0]!;
      if (answer === 'hang') {
        hanging.push(() => res.destroy());
        return;
      }
      const [status, headers] = typeof answer === 'number' ? [answer, {}] : answer;
      res.writeHead(status, headers).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

let env: JobQueueEnv;
const outbounds: OutboundClient[] = [];
beforeEach(async () => {
  scripts.clear();
  received.clear();
  env = await embeddedEnv();
});
afterEach(async () => {
  for (const release of hanging.splice(0)) release();
  await env.close();
  for (const outbound of outbounds.splice(0)) await outbound.close();
});

const url = (path: string) => `http://127.0.0.1:${port}${path}`;

function outbound(allowReceiver: boolean, allowPrivateNetwork: boolean): OutboundClient {
  const client = new OutboundClient(
    {
      userAgent: 'quarry-test',
      timeoutMs: 2000,
      retries: 0,
      perHostConcurrency: 4,
      maxResponseBytes: 1 << 20,
      maxRedirects: 5,
      proxy: null,
      respectRobots: false,
      allowPrivateNetwork,
      allowHosts: allowReceiver ? [`127.0.0.1:${port}`] : [],
    },
    silentLogger(),
  );
  outbounds.push(client);
  return client;
}

/** A started job service with webhook delivery wired as the app wires it. */
async function deliveries(
  options: {
    maxAttempts?: number;
    baseMs?: number;
    allowReceiver?: boolean;
    allowPrivate?: boolean;
    webhookConcurrency?: number;
  } = {},
) {
  const jobs: JobService = await env.instance({ laneConcurrency: { webhooks: options.webhookConcurrency ?? 4 } });
  const client = outbound(options.allowReceiver ?? true, options.allowPrivate ?? false);
  const webhooks = new WebhookDeliveries(
    jobs,
    (request) => client.fetch(request),
    {
      secret: SECRET,
      maxAttempts: options.maxAttempts ?? 4,
      timeoutMs: 1000,
      backoff: { baseMs: options.baseMs ?? 100, maxMs: 60_000 },
    },
    silentLogger(),
  );
  jobs.define(WEBHOOK_DELIVERY_KIND, webhooks.kind());
  jobs.onFinished(jobWebhookListener(webhooks));
  return { jobs, webhooks };
}

async function settled(webhooks: WebhookDeliveries, id: string, timeoutMs = 10_000): Promise<DeliveryState> {
  return until(
    `delivery ${id} to settle`,
    async () => {
      const state = await webhooks.state(id);
      if (!state || state.status === 'pending') throw new Error(`delivery ${id} is ${state?.status ?? 'unknown'}`);
      return state;
    },
    timeoutMs,
    20,
  );
}

const gaps = (list: Received[]) => list.slice(1).map((r, i) => r.at - list[i]!.at);

describe('webhook delivery (Standard Webhooks)', () => {
  it('signs a delivery so the standardwebhooks package verifies it, and logs it as delivered', async () => {
    const { jobs, webhooks } = await deliveries();
    await jobs.start();
    const body = JSON.stringify({ event: 'test.completed', n: 1 });
    expect(await webhooks.enqueue({ id: 'msg_one', url: url('/ok'), body })).toMatchObject({
      id: 'msg_one',
      status: 'pending',
    });
    const state = await settled(webhooks, 'msg_one');
    expect(state).toMatchObject({ id: 'msg_one', status: 'delivered', attempts: 1 });
    expect(Date.parse(state.deliveredAt!)).toBeGreaterThan(Date.now() - 10_000);
    const [delivery] = received.get('/ok')!;
    expect(delivery!.verified).toBe(true);
    expect(delivery!.body).toBe(body);
    expect(delivery!.headers['webhook-id']).toBe('msg_one');
    expect(Number(delivery!.headers['webhook-timestamp'])).toBeCloseTo(Date.now() / 1000, -1);
    expect(delivery!.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(delivery!.headers['content-type']).toBe('application/json');
    // Signed with another secret, the same delivery does not verify.
    expect(() =>
      new Webhook(generateWebhookSecret()).verify(delivery!.body, delivery!.headers as Record<string, string>),
    ).toThrow();
  });

  it("sends the receiver's headers (never over its own) and, when asked, a sha256= signature of the raw body", async () => {
    const { jobs, webhooks } = await deliveries();
    await jobs.start();
    const body = JSON.stringify({ type: 'crawl.page', id: 'crawl_1' });
    await webhooks.enqueue({
      id: 'msg_fc',
      url: url('/fc'),
      body,
      headers: {
        'X-Team': 'stone',
        'Content-Type': 'text/plain',
        'webhook-id': 'forged',
        'X-Firecrawl-Signature': 'forged',
      },
      bodySignatureHeader: 'X-Firecrawl-Signature',
    });
    expect(await settled(webhooks, 'msg_fc')).toMatchObject({ status: 'delivered' });
    const [delivery] = received.get('/fc')!;
    expect(delivery!.headers['x-team']).toBe('stone');
    expect(delivery!.headers['content-type']).toBe('application/json');
    expect(delivery!.headers['webhook-id']).toBe('msg_fc');
    expect(delivery!.verified).toBe(true);
    const expected = createHmac('sha256', SECRET).update(body).digest('hex');
    expect(delivery!.headers['x-firecrawl-signature']).toBe(`sha256=${expected}`);
  });

  it('retries 5xx answers with growing, jittered delays, keeping one webhook-id', async () => {
    scripts.set('/flaky', [500, 503, 502, 200]);
    const { jobs, webhooks } = await deliveries({ maxAttempts: 5, baseMs: 200 });
    await jobs.start();
    await webhooks.enqueue({ id: 'msg_flaky', url: url('/flaky'), body: '{}' });
    expect(await settled(webhooks, 'msg_flaky')).toMatchObject({ status: 'delivered', attempts: 4 });
    const list = received.get('/flaky')!;
    expect(list).toHaveLength(4);
    expect(new Set(list.map((r) => r.headers['webhook-id']))).toEqual(new Set(['msg_flaky']));
    expect(list.every((r) => r.verified)).toBe(true);
    // Attempt n waits between half and all of base·2^(n-1): 100–200, 200–400, 400–800 ms.
    const [first, second, third] = gaps(list);
    expect(first).toBeGreaterThanOrEqual(95);
    expect(second).toBeGreaterThanOrEqual(195);
    expect(third).toBeGreaterThanOrEqual(395);
  });

  it('retries a receiver that cannot be reached until maxAttempts, then logs it failed with the last error', async () => {
    const { jobs, webhooks } = await deliveries({ maxAttempts: 3, baseMs: 100, allowPrivate: true });
    await jobs.start();
    await webhooks.enqueue({ id: 'msg_unreachable', url: 'http://127.0.0.1:9/closed', body: '{}' });
    const state = await settled(webhooks, 'msg_unreachable');
    expect(state).toMatchObject({ status: 'failed', attempts: 3 });
    expect(state.lastError).toMatch(/^UNREACHABLE: /);
  });

  it('honours Retry-After on a 429', async () => {
    scripts.set('/busy', [[429, { 'Retry-After': '2' }], 200]);
    const { jobs, webhooks } = await deliveries({ baseMs: 50 });
    await jobs.start();
    await webhooks.enqueue({ id: 'msg_busy', url: url('/busy'), body: '{}' });
    await until(
      'the first attempt to meet the 429',
      async () => (await webhooks.state('msg_busy'))?.lastError === 'HTTP 429',
      5000,
      20,
    );
    const waiting = (await webhooks.state('msg_busy'))!;
    expect(waiting.status).toBe('pending');
    expect(Date.parse(waiting.nextAttemptAt!)).toBeGreaterThanOrEqual(Date.now() + 1000);
    expect(await settled(webhooks, 'msg_busy')).toMatchObject({ status: 'delivered', attempts: 2 });
    expect(gaps(received.get('/busy')!)[0]).toBeGreaterThanOrEqual(1990);
  });

  it('does not retry other 4xx answers, nor an address the outbound policy refuses', async () => {
    scripts.set('/refuses', [400]);
    scripts.set('/timeout', [408]);
    const { jobs, webhooks } = await deliveries();
    await jobs.start();
    await webhooks.enqueue({ id: 'msg_400', url: url('/refuses'), body: '{}' });
    await webhooks.enqueue({ id: 'msg_408', url: url('/timeout'), body: '{}' });
    expect(await settled(webhooks, 'msg_400')).toMatchObject({ status: 'failed', attempts: 1, lastError: 'HTTP 400' });
    expect(await settled(webhooks, 'msg_408')).toMatchObject({ status: 'failed', attempts: 1, lastError: 'HTTP 408' });
    expect(received.get('/refuses')).toHaveLength(1);

    const { jobs: guarded, webhooks: refused } = await deliveries({ allowReceiver: false });
    await jobs.stop(0);
    await guarded.start();
    await refused.enqueue({ id: 'msg_private', url: url('/private'), body: '{}' });
    const state = await settled(refused, 'msg_private');
    expect(state).toMatchObject({ status: 'failed', attempts: 1 });
    expect(state.lastError).toMatch(/^FORBIDDEN_ADDRESS/);
    expect(received.get('/private')).toBeUndefined();
  });

  it('does not follow a receiver that redirects: the POST is not re-sent elsewhere, and the delivery fails', async () => {
    scripts.set('/moved', [[301, { location: url('/elsewhere') }]]);
    const { jobs, webhooks } = await deliveries();
    await jobs.start();
    await webhooks.enqueue({ id: 'msg_301', url: url('/moved'), body: '{}' });
    expect(await settled(webhooks, 'msg_301')).toMatchObject({ status: 'failed', attempts: 1, lastError: 'HTTP 301' });
    expect(received.get('/elsewhere')).toBeUndefined();
  });

  it('sends a message once however often it is enqueued', async () => {
    // One delivery at a time, so a later message delivered means everything queued before it was sent.
    const { jobs, webhooks } = await deliveries({ webhookConcurrency: 1 });
    await jobs.start();
    await Promise.all(
      [1, 2, 3].map(() => webhooks.enqueue({ id: 'msg_dup', url: url('/dup'), body: '{"once":true}' })),
    );
    await settled(webhooks, 'msg_dup');
    expect(await webhooks.enqueue({ id: 'msg_dup', url: url('/dup'), body: '{"once":true}' })).toMatchObject({
      status: 'delivered',
    });
    await webhooks.enqueue({ id: 'msg_after_dup', url: url('/after-dup'), body: '{}' });
    expect(await settled(webhooks, 'msg_after_dup')).toMatchObject({ status: 'delivered' });
    expect(received.get('/dup')).toHaveLength(1);
  });

  it('sends a delivery that was in flight when the process died after the restart, with the same webhook-id', async () => {
    scripts.set('/slow', ['hang', 200]);
    const first = await deliveries();
    await first.jobs.start();
    await first.webhooks.enqueue({ id: 'msg_crash', url: url('/slow'), body: '{"survives":true}' });
    await until('the slow receiver to get the message', async () => received.get('/slow')?.length === 1, 5000, 20);
    await env.crash(first.jobs);
    const second = await deliveries();
    await second.jobs.start();
    expect(await settled(second.webhooks, 'msg_crash')).toMatchObject({ status: 'delivered', attempts: 2 });
    const list = received.get('/slow')!;
    expect(list.map((r) => r.headers['webhook-id'])).toEqual(['msg_crash', 'msg_crash']);
    expect(list.every((r) => r.verified)).toBe(true);
  });

  it('posts a finished job’s outcome once, under an id derived from the job and event', async () => {
    const { jobs, webhooks } = await deliveries();
    jobs.define('search.web', async (input) => ({ results: [input] }));
    jobs.define('search.broken', async () => {
      throw new Error('boom');
    });
    await jobs.start();
    const done = await jobs.submit('search.web', 'q', { idPrefix: 'req_', webhookUrl: url('/job-done') });
    const failed = await jobs.submit('search.broken', null, { idPrefix: 'req_', webhookUrl: url('/job-failed') });
    const id = jobMessageId(done.id, 'search.completed');
    const state = await settled(webhooks, id);
    expect(state.status).toBe('delivered');
    const [delivery] = received.get('/job-done')!;
    expect(delivery!.verified).toBe(true);
    expect(delivery!.headers['webhook-id']).toBe(id);
    expect(JSON.parse(delivery!.body)).toEqual({
      event: 'search.completed',
      request_id: done.id,
      status: 'completed',
      result: { results: ['q'] },
      timestamp: expect.any(String),
    });
    expect(await jobWebhookState(webhooks, (await jobs.get(done.id))!)).toMatchObject({
      id,
      status: 'delivered',
      attempts: 1,
    });

    await settled(webhooks, jobMessageId(failed.id, 'search.failed'));
    expect(JSON.parse(received.get('/job-failed')![0]!.body)).toMatchObject({
      event: 'search.failed',
      status: 'failed',
      error: { code: 'INTERNAL', message: expect.stringMatching(/^internal error \(reference [0-9a-f]{8}\)/) },
    });
    // A bug's own message stays in the server log, never in what a receiver sees.
    expect(received.get('/job-failed')![0]!.body).not.toContain('boom');
  });

  it('lets a hanging receiver hold up only deliveries, not other jobs', async () => {
    scripts.set('/stuck', ['hang']);
    const { jobs, webhooks } = await deliveries({ webhookConcurrency: 1 });
    jobs.define('test.quick', async () => 'done');
    await jobs.start();
    await webhooks.enqueue({ id: 'msg_stuck', url: url('/stuck'), body: '{}' });
    await until('the stuck receiver to get the message', async () => received.get('/stuck')?.length === 1, 5000, 20);
    const quick = await jobs.submit('test.quick', null);
    await until('the quick job to complete', async () => (await jobs.get(quick.id))?.status === 'completed', 2000, 20);
  });
});

describe('Standard Webhooks secrets and Retry-After', () => {
  it('generates whsec_ secrets of 32 bytes and says what is wrong with a bad one', () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(webhookSecretProblem(secret)).toBeNull();
    expect(webhookSecretProblem('plain-secret-0123456789')).toMatch(/whsec_/);
    expect(webhookSecretProblem('whsec_not base64!')).toMatch(/base64/);
    expect(webhookSecretProblem(`whsec_${Buffer.alloc(8).toString('base64')}`)).toMatch(/24 to 64 bytes/);
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    const now = Date.parse('2030-01-01T00:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120);
    expect(parseRetryAfter('Tue, 01 Jan 2030 00:00:30 GMT', now)).toBe(30);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});
