import { describe, expect, it } from 'vitest';
import { countByStatus } from './queue-status.js';

describe('countByStatus', () => {
  it('counts processing jobs as active and every other unfinished job as waiting', () => {
    expect(countByStatus(['processing', 'queued', 'queued', 'processing', 'queued'])).toEqual({
      active: 2,
      waiting: 3,
    });
    expect(countByStatus([])).toEqual({ active: 0, waiting: 0 });
  });
});
