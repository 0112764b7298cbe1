import { describe, expect, it } from 'vitest';
import { isoDateSchema } from './field-schemas.js';

describe('isoDateSchema', () => {
  it('takes an ISO date or date-time, with or without an offset, and refuses anything else', () => {
    for (const date of ['2024-02-29', '2024-05-01T10:00:00Z', '2024-05-01T10:00:00+02:00', '2024-05-01T10:00']) {
      expect(isoDateSchema.safeParse(date).success).toBe(true);
    }
    for (const date of ['2023-02-29', '2024-13-01', 'yesterday', '01/05/2024']) {
      expect(isoDateSchema.safeParse(date).success).toBe(false);
    }
  });
});
