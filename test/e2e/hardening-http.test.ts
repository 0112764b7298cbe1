/**
 * Issue 17, cases 8 and 9 (transport side): every error the HTTP transport
 * meets — fastify's and Node's own — is the catalogue's JSON, the API key
 * is checked first where headers were read, wrong methods get 405 with
 * Allow, and slow clients are cut off by the configured timeouts. Internal
 * errors are logged once and answered without their message; upstream
 * failures a caller caused are not logged as errors.
 */
import { connect } from 'node:net';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineCapability } from '../../core/capability.js';
import { AppError } from '../../core/errors.js';
import { playDefaultEngines } from '../recordings.js';
import { startSandboxWeb, type SandboxWeb } from '../sandbox/sandbox-web.js';
import { startQuarry, TEST_KEY, type RunningQuarry } from './harness.js';
import { until } from '../sandbox/until.js';

const HEADERS_TIMEOUT_MS = 1000;
const BODY_TIMEOUT_MS = 2000;

let web: SandboxWeb;
let quarry: RunningQuarry;
const logLines: Array<Record<string, any>> = [];

/** Two capabilities only these tests serve: one with a bug, one whose upstream fails. */
const testCapabilities = [
  defineCapability({
    id: 'test.crash',
    title: 'Crashes',
    description: 'A capability with a bug, for the error path tests.',
    input: z.strictObject({}),
    output: z.object({}),
    http: { method: 'POST', path: '/api/v1/test/crash' },
    mcpTool: 'test_crash',
    async handler() {
      throw new TypeError('secret internal detail: /var/lib/quarry/db.sqlite is locked');
    },
  }),
  defineCapability({
    id: 'test.upstream',
    title: 'Upstream fails',
    description: 'A capability whose upstream fails, for the logging tests.',
    input: z.strictObject({}),
    output: z.object({}),
    http: { method: 'POST', path: '/api/v1/test/upstream' },
    mcpTool: 'test_upstream',
    async handler() {
      throw new AppError('UNREACHABLE', 'request to unreachable.example failed: ECONNREFUSED');
    },
  }),
];

function raw(data: string | Buffer, options: { endAfterMs?: number } = {}): Promise<{ text: string; ms: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const socket = connect(Number(new URL(quarry.url).port), '127.0.0.1');
    let text = '';
    socket.on('data', (chunk) => (text += chunk.toString()));
    socket.on('close', () => resolve({ text, ms: performance.now() - started }));
    socket.on('error', () => undefined);
    socket.write(data);
    if (options.endAfterMs) setTimeout(() => socket.destroy(), options.endAfterMs);
  });
}

/** Status and JSON body of a raw HTTP answer. */
function parseRaw(text: string): { status: number; body: any; headers: string } {
  const [head = '', body = ''] = text.split('\r\n\r\n');
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]), body: body ? JSON.parse(body) : null, headers: head };
}

beforeAll(async () => {
  web = await startSandboxWeb();
  playDefaultEngines(web);
  const logger = pino(
    { level: 'info' },
    new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) logLines.push(JSON.parse(line));
        done();
      },
    }),
  );
  quarry = await startQuarry(
    web,
    { headersTimeoutMs: HEADERS_TIMEOUT_MS, bodyTimeoutMs: BODY_TIMEOUT_MS },
    { logger, capabilities: testCapabilities },
  );
});

afterAll(async () => {
  await quarry?.close();
  await web?.close();
});

describe('8. HTTP contract', () => {
  it('refuses a body that is not valid UTF-8 instead of reading replacement characters', async () => {
    const body = Buffer.concat([Buffer.from('{"text":"caf'), Buffer.from([0xe9]), Buffer.from('"}')]);
    const response = await fetch(`${quarry.url}/api/v1/enhanced/chunk-content`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': TEST_KEY },
      body,
    });
    expect(response.status).toBe(400);
    const answer = await response.json();
    expect(answer.error).toMatchObject({ code: 'MALFORMED_JSON' });
    expect(answer.error.message).toContain('UTF-8');
  });

  it.each(['/api/v1/search/engines', '/api/v1/neural/categories', '/api/v1/enhanced/features'])(
    'refuses ?__proto__=1 on GET %s, naming it',
    async (path) => {
      const { status, body } = await quarry.get(`${path}?__proto__=1`);
      expect(status).toBe(400);
      expect(body.error.code).toBe('INVALID_INPUT');
      expect(body.error.details.issues[0].field).toBe('__proto__');
    },
  );

  it.each([
    ['{"text":"x","__proto__":{"polluted":1}}', '__proto__'],
    ['{"text":"x","constructor":{"prototype":{}}}', 'constructor'],
    ['{"text":"x","meta":{"a":[{"prototype":1}]}}', 'meta.a.0.prototype'],
  ])('refuses %s naming the field, not as "not valid JSON"', async (body, field) => {
    const answer = await quarry.post('/api/v1/enhanced/chunk-content', body);
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe('INVALID_INPUT');
    expect(answer.body.error.details.issues[0].field).toBe(field);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('answers an over-long path parameter with 401 first, then 414 in the catalogue format', async () => {
    const path = `/api/v1/search/jobs/${'a'.repeat(300)}`;
    const anonymous = await fetch(`${quarry.url}${path}`);
    expect(anonymous.status).toBe(401);
    expect((await anonymous.json()).error.code).toBe('UNAUTHORIZED');
    const { status, body } = await quarry.get(path);
    expect(status).toBe(414);
    expect(body.error.code).toBe('URI_TOO_LONG');
  });

  it('answers oversized headers with 431 in the catalogue format', async () => {
    const { text } = await raw(`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    const answer = parseRaw(text);
    expect(answer.status).toBe(431);
    expect(answer.body.error.code).toBe('HEADERS_TOO_LARGE');
  });

  it.each([
    ['a bad Content-Length', 'POST /api/v1/enhanced/chunk-content HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n'],
    ['a bad method token', 'G@T / HTTP/1.1\r\nHost: x\r\n\r\n'],
    [
      'conflicting framing',
      'POST /api/v1/enhanced/chunk-content HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: ' +
        'chunked\r\n\r\n0\r\n\r\n',
    ],
    [
      'a bad chunk size',
      'POST /api/v1/enhanced/chunk-content HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: ' +
        'chunked\r\nContent-Type: application/json\r\n\r\nzz\r\n',
    ],
  ])('answers malformed framing (%s) with 400 in the catalogue format', async (_label, request) => {
    const answer = parseRaw((await raw(request)).text);
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe('MALFORMED_REQUEST');
  });

  it.each([
    ['GET', '/api/v1/search/', 'POST'],
    ['DELETE', '/api/v1/enhanced/features', 'GET, HEAD'],
    ['PUT', '/api/v1/enhanced/scrape', 'POST'],
  ])('answers %s %s with 405 and Allow: %s (after the key check)', async (method, path, allow) => {
    const anonymous = await fetch(`${quarry.url}${path}`, { method });
    expect(anonymous.status).toBe(401);
    const response = await fetch(`${quarry.url}${path}`, { method, headers: { 'x-api-key': TEST_KEY } });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe(allow);
    expect((await response.json()).error.code).toBe('METHOD_NOT_ALLOWED');
  });

  it('still answers 404 for paths no route has', async () => {
    expect((await quarry.get('/api/v1/no/such/route')).status).toBe(404);
  });

  it('limits categories (maxItems), in validation and in the OpenAPI document', async () => {
    const { status, body } = await quarry.post('/api/v1/search/', {
      query: 'x',
      categories: Array.from({ length: 1000 }, () => 'general'),
    });
    expect(status).toBe(400);
    expect(body.error.message).toContain('categories');
    const openapi = (await quarry.get('/api/v1/openapi.json')).body;
    const schema = openapi.paths['/api/v1/search/'].post.requestBody.content['application/json'].schema;
    expect(schema.properties.categories.maxItems).toBeGreaterThan(0);
  });
});

describe('9. slow clients', () => {
  it(`disconnects a client that sends headers at 1 byte/s after ${HEADERS_TIMEOUT_MS} ms, with 408 JSON`, async () => {
    const started = performance.now();
    const text = await new Promise<string>((resolve) => {
      const socket = connect(Number(new URL(quarry.url).port), '127.0.0.1');
      let out = '';
      socket.on('data', (chunk) => (out += chunk.toString()));
      socket.on('error', () => undefined);
      socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n');
      const drip = setInterval(() => socket.writable && socket.write('X'), 1000);
      socket.on('close', () => {
        clearInterval(drip);
        resolve(out);
      });
    });
    const elapsed = performance.now() - started;
    const answer = parseRaw(text);
    expect(answer.status).toBe(408);
    expect(answer.body.error.code).toBe('REQUEST_TIMEOUT');
    // Node checks timeouts on an interval (500 ms here); the cut comes after the timeout, not 30 s later.
    expect(elapsed).toBeLessThan(HEADERS_TIMEOUT_MS + 3000);
  });

  it(`disconnects a client that sends its body at 1 byte/s after ${BODY_TIMEOUT_MS} ms`, async () => {
    const started = performance.now();
    const text = await new Promise<string>((resolve) => {
      const socket = connect(Number(new URL(quarry.url).port), '127.0.0.1');
      let out = '';
      socket.on('data', (chunk) => (out += chunk.toString()));
      socket.on('error', () => undefined);
      socket.write(
        `POST /api/v1/enhanced/chunk-content HTTP/1.1\r\nHost: x\r\nX-API-Key: ${TEST_KEY}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"text":"`,
      );
      const drip = setInterval(() => socket.writable && socket.write('a'), 1000);
      socket.on('close', () => {
        clearInterval(drip);
        resolve(out);
      });
    });
    const elapsed = performance.now() - started;
    expect(parseRaw(text).status).toBe(408);
    expect(elapsed).toBeLessThan(BODY_TIMEOUT_MS + 3000);
  });
});

describe('9. errors: what callers see and what the log keeps', () => {
  it('answers a bug with INTERNAL and a reference, never its message; logs it once with the stack', async () => {
    logLines.length = 0;
    const { status, body } = await quarry.post('/api/v1/test/crash', {});
    expect(status).toBe(500);
    expect(body.error.code).toBe('INTERNAL');
    expect(body.error.message).not.toContain('secret internal detail');
    const reference = body.error.details.reference as string;
    expect(body.error.message).toContain(reference);
    const errors = logLines.filter((line) => line.level >= 50);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.reference).toBe(reference);
    expect(errors[0]!.err.stack).toContain('secret internal detail');
  });

  it('logs an upstream failure the caller caused below error level, without a stack', async () => {
    logLines.length = 0;
    const { status, body } = await quarry.post('/api/v1/test/upstream', {});
    expect(status).toBe(502);
    expect(body.error.code).toBe('UNREACHABLE');
    expect(logLines.filter((line) => line.level >= 50)).toEqual([]);
    expect(logLines.some((line) => line.err?.stack)).toBe(false);
  });

  it('echoes a webhook URL without its credentials, and never logs them', async () => {
    logLines.length = 0;
    const hook = new URL(web.webhookUrl('secret-hook'));
    hook.username = 'alice';
    hook.password = 's3cret';
    hook.searchParams.set('token', 'tok3n');
    const { status, body } = await quarry.post('/api/v1/search/', {
      query: 'hello',
      engines: ['wikipedia'],
      async_mode: true,
      webhook_url: hook.href,
      scrape_content: false,
    });
    expect(status).toBeLessThan(300);
    expect(body.webhook_url).toBeDefined();
    expect(body.webhook_url).not.toMatch(/s3cret|tok3n|alice/);
    // Wait for the first delivery attempt to be logged (delivered or failed), then read the whole log.
    await until(
      'the first delivery attempt to be logged',
      async () => logLines.some((line) => /webhook deliver/.test(line.msg)),
      20_000,
    );
    const delivery = logLines.find((line) => /webhook deliver/.test(line.msg))!;
    expect(delivery.url).toContain('***');
    expect(JSON.stringify(logLines)).not.toMatch(/s3cret|tok3n/);
  });
});
