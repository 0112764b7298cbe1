import { Keyv } from 'keyv';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AnswerCache } from './answer-cache.js';

/** A store that counts reads, so a test can tell a memo hit from a store hit. */
function countingStore(): { store: Keyv; reads: () => number } {
  const store = new Keyv();
  let reads = 0;
  const getRaw = store.getRaw.bind(store);
  store.getRaw = (async (key: string) => {
    reads++;
    return getRaw(key);
  }) as typeof store.getRaw;
  return { store, reads: () => reads };
}

describe('answer cache', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('answers a repeated lookup from its memo, frozen, and counts every lookup', async () => {
    const { store, reads } = countingStore();
    const lookups: boolean[] = [];
    const cache = new AnswerCache<{ results: Array<{ url: string }> }>(store, 'search', (hit) => lookups.push(hit));
    expect(await cache.get('k')).toBeUndefined();
    await cache.set('k', { results: [{ url: 'https://example.org/' }] }, 60_000);
    const first = await cache.get('k');
    const second = await cache.get('k');
    expect(second).toEqual({ results: [{ url: 'https://example.org/' }] });
    expect(second).toBe(first);
    expect(Object.isFrozen(second!.results[0])).toBe(true);
    expect(reads()).toBe(1);
    expect(lookups).toEqual([false, true, true]);
  });

  it('reads what another instance stored, and forgets an entry once the store entry expired', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { store, reads } = countingStore();
    await new AnswerCache<{ n: number }>(store, 'search').set('k', { n: 1 }, 30);
    const cache = new AnswerCache<{ n: number }>(store, 'search');
    expect(await cache.get('k')).toEqual({ n: 1 });
    vi.setSystemTime(Date.now() + 31);
    expect(await cache.get('k')).toBeUndefined();
    expect(reads()).toBe(2);
  });
});
