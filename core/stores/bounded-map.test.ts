import { describe, expect, it, vi } from 'vitest';
import Keyv from 'keyv';
import { BoundedMap } from './bounded-map.js';

describe('BoundedMap', () => {
  it('forgets the least recently used entries beyond the entry count', () => {
    const map = new BoundedMap<string, string>(2, 1e9);
    map.set('a', '1').set('b', '2');
    map.get('a');
    map.set('c', '3');
    expect([...map.keys()]).toEqual(['a', 'c']);
  });

  it('keeps the order of use when the newest entry is read again and again', () => {
    const map = new BoundedMap<string, string>(2, 1e9);
    map.set('a', '1').set('b', '2');
    expect([map.get('b'), map.get('b'), map.get('a'), map.get('b')]).toEqual(['2', '2', '1', '2']);
    map.set('c', '3');
    expect([...map.keys()]).toEqual(['b', 'c']);
    map.delete('c');
    expect(map.get('c')).toBeUndefined();
    expect([...map.keys()]).toEqual(['b']);
  });

  it('keeps within the byte budget, counting replaced values once', () => {
    const map = new BoundedMap<string, string>(100, 100);
    map.set('a', 'x'.repeat(20)).set('a', 'y'.repeat(20)).set('b', 'z'.repeat(20));
    expect(map.usedBytes()).toBe(80);
    map.set('c', 'w'.repeat(20));
    expect([...map.keys()]).toEqual(['b', 'c']);
    expect(map.usedBytes()).toBe(80);
  });

  it('works as a Keyv store with TTLs', async () => {
    // The clock is moved past the TTL instead of slept through: Keyv reads expiry from Date.now().
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const keyv = new Keyv({ store: new BoundedMap<string, unknown>(2, 1e6) });
      await keyv.set('a', { n: 1 });
      await keyv.set('b', { n: 2 }, 1);
      await keyv.set('c', { n: 3 });
      expect(await keyv.get('a')).toBeUndefined();
      expect(await keyv.get('c')).toEqual({ n: 3 });
      expect(await keyv.get('b')).toEqual({ n: 2 });
      vi.setSystemTime(Date.now() + 5);
      expect(await keyv.get('b')).toBeUndefined();
    } finally {
      vi.useRealTimers();
    }
  });
});
