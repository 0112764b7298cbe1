import { describe, expect, it } from 'vitest';
import { HostLimiter } from './host-limiter.js';
import { Semaphore } from './semaphore.js';

describe('Semaphore', () => {
  it('serves waiters in arrival order and never exceeds the limit', async () => {
    const semaphore = new Semaphore(1);
    const order: number[] = [];
    const first = await semaphore.acquire();
    const waiters = [1, 2, 3].map((n) =>
      semaphore.acquire().then((release) => {
        order.push(n);
        expect(semaphore.inUse()).toBe(1);
        release();
      }),
    );
    first();
    await Promise.all(waiters);
    expect(order).toEqual([1, 2, 3]);
    expect(semaphore.idle()).toBe(true);
  });

  it('drops an aborted waiter from the queue and ignores double releases', async () => {
    const semaphore = new Semaphore(1);
    const release = await semaphore.acquire();
    const controller = new AbortController();
    const aborted = semaphore.acquire(controller.signal);
    controller.abort(new Error('stop'));
    await expect(aborted).rejects.toThrow('stop');
    release();
    release();
    expect(semaphore.idle()).toBe(true);
    const again = await semaphore.acquire();
    expect(semaphore.inUse()).toBe(1);
    again();
  });
});

describe('HostLimiter', () => {
  it('limits per host, case-insensitively, and forgets idle hosts', async () => {
    const limiter = new HostLimiter(1);
    const a = await limiter.acquire('Example.com');
    let second = false;
    const pending = limiter.acquire('example.com').then((release) => {
      second = true;
      return release;
    });
    const other = await limiter.acquire('other.example');
    // A turn of the event loop: every grant the limiter could make without a release has been made.
    await new Promise((resolve) => setImmediate(resolve));
    expect(second).toBe(false);
    a();
    (await pending)();
    other();
    expect(limiter.activeHosts()).toBe(0);
  });
});
