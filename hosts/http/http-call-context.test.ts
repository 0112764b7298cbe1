import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { HttpCallContext } from './http-call-context.js';

/** A response as the context reads it: closed, finished, and its close event. */
function response(): ServerResponse & { closed: boolean; writableFinished: boolean } {
  return Object.assign(new EventEmitter(), { closed: false, writableFinished: false }) as never;
}

const request = (principal?: { id: string; admin: boolean }) =>
  ({
    log: { name: 'request logger' },
    principal,
    protocol: 'https',
    host: 'quarry.example:8443',
  }) as unknown as FastifyRequest;

describe('HttpCallContext', () => {
  it('carries the caller, the logger and the base URL the request came to', () => {
    const ctx = new HttpCallContext(request({ id: 'key:abc', admin: false }), response());
    expect(ctx.caller).toEqual({ id: 'key:abc', admin: false });
    expect(ctx.logger).toEqual({ name: 'request logger' });
    expect(ctx.host).toBe('http');
    expect(ctx.baseUrl).toBe('https://quarry.example:8443');
    expect(new HttpCallContext(request(), response()).caller).toBeUndefined();
  });

  it('answers the configured public URL as its base URL when there is one (http.publicUrl)', () => {
    const ctx = new HttpCallContext(request(), response(), 'https://search.example.com/quarry');
    expect(ctx.baseUrl).toBe('https://search.example.com/quarry');
  });

  it('is cancelled when the client leaves before the answer, and listens only once the signal is asked for', () => {
    const res = response();
    const ctx = new HttpCallContext(request(), res);
    expect(res.listenerCount('close')).toBe(0);
    const signal = ctx.signal;
    expect(res.listenerCount('close')).toBe(1);
    res.closed = true;
    res.emit('close');
    expect(signal.aborted).toBe(true);
    expect(ctx.cancelled()).toBe(true);
    ctx.release();
    expect(res.listenerCount('close')).toBe(0);
  });

  it('is not cancelled when the answer was written before the connection closed', () => {
    const res = response();
    const ctx = new HttpCallContext(request(), res);
    const signal = ctx.signal;
    Object.assign(res, { closed: true, writableFinished: true });
    res.emit('close');
    expect(signal.aborted).toBe(false);
    expect(ctx.cancelled()).toBe(false);
  });

  it('keeps fast properties, unlike an object literal with getters', () => {
    // The reason the context is a class: V8 puts a literal with getters in dictionary mode (slow reads downstream).
    setFlagsFromString('--allow-natives-syntax');
    const hasFastProperties = new Function('value', 'return %HasFastProperties(value)') as (value: object) => boolean;
    const literal = {
      host: 'http',
      get signal() {
        return undefined;
      },
    };
    expect(hasFastProperties(literal)).toBe(false);
    expect(hasFastProperties(new HttpCallContext(request({ id: 'key:abc', admin: false }), response()))).toBe(true);
    expect(hasFastProperties(new HttpCallContext(request(), response()))).toBe(true);
  });
});
