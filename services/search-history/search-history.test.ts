import { Keyv } from 'keyv';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../core/logger.js';
import { SearchHistory } from './search-history.js';

const caller = { id: 'key:abc', admin: false };

/** A memory Keyv that counts its writes. */
function countingStore(): { store: Keyv; writes: () => number } {
  const store = new Keyv();
  let writes = 0;
  const set = store.set.bind(store);
  store.set = ((...args: Parameters<Keyv['set']>) => {
    writes++;
    return set(...args);
  }) as Keyv['set'];
  return { store, writes: () => writes };
}

describe('SearchHistory', () => {
  it('keeps recent searches in order, a repeated one moved to the end', async () => {
    const history = new SearchHistory(new Keyv(), silentLogger());
    await history.record(caller, ['sourdough']);
    await history.record(caller, ['rye starter', 'levain']);
    await history.record(caller, ['Sourdough']);
    expect(await history.recent(caller, 10)).toEqual(['rye starter', 'levain', 'Sourdough']);
  });

  it('does not write again a search it recorded for the same caller moments ago', async () => {
    const clock = { now: 1_000_000 };
    const { store, writes } = countingStore();
    const history = new SearchHistory(store, silentLogger(), { now: () => clock.now });
    await history.record(caller, ['sourdough']);
    await history.record(caller, ['sourdough']);
    await history.record(caller, ['sourdough']);
    expect(writes()).toBe(1);
    // Another caller, another query, or the same one after the repeat window: written.
    await history.record({ id: 'key:other', admin: false }, ['sourdough']);
    await history.record(caller, ['rye']);
    await history.record(caller, ['sourdough']);
    clock.now += 10_000;
    await history.record(caller, ['sourdough']);
    expect(writes()).toBe(5);
    expect(await history.recent(caller, 10)).toEqual(['rye', 'sourdough']);
  });
});
