import { describe, expect, it } from 'vitest';
import { missingRequirements } from './global-requirements.js';

describe('test requirements check', () => {
  it('names a missing requirement and how to get it', () => {
    const { missing, skipped } = missingRequirements((path) => path !== '/usr/bin/redis-server', '');
    expect(skipped).toEqual([]);
    expect(missing).toHaveLength(1);
    expect(missing[0]).toContain('redis-server');
    expect(missing[0]).toContain('QUARRY_TEST_WITHOUT=redis');
  });

  it('turns a missing requirement into an announced skip only when opted out by name', () => {
    const { missing, skipped } = missingRequirements(() => false, 'Redis, chromium');
    expect(missing).toEqual([]);
    expect(skipped.map((line) => line.split(' ')[0])).toEqual(['redis', 'chromium']);
  });

  it('passes when everything is present', () => {
    expect(missingRequirements(() => true, '')).toEqual({ missing: [], skipped: [] });
  });
});
