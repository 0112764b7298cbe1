import { describe, expect, it } from 'vitest';
import { clientArguments, clientArgv } from './load-client-protocol.js';

describe('the load client protocol', () => {
  it('reads back the arguments it was started with, a body making a POST', () => {
    const post = { body: '{"query":"hello"}', headers: { 'x-api-key': 'k' } };
    expect(clientArguments(clientArgv('http://127.0.0.1:1/api/v1/search/', 3, 16, post))).toEqual({
      url: 'http://127.0.0.1:1/api/v1/search/',
      seconds: 3,
      concurrency: 16,
      ...post,
    });
    expect(clientArguments(clientArgv('http://127.0.0.1:1/healthz', 2, 8))).toEqual({
      url: 'http://127.0.0.1:1/healthz',
      seconds: 2,
      concurrency: 8,
      headers: {},
    });
  });
});
