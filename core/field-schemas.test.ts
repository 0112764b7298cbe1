import { describe, expect, it } from 'vitest';
import { domainFilterSchema, isoDateSchema } from './field-schemas.js';

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

describe('domainFilterSchema', () => {
  it('normalises an entry to the bare host, a www or numbered www label dropped as hosts are compared', () => {
    const parse = (entry: string) => domainFilterSchema.parse(entry);
    expect(parse('https://WWW.Example.com/')).toBe('example.com');
    expect(parse('www1.cbn.com')).toBe('cbn.com');
    expect(parse('*.news.example.org:8443')).toBe('news.example.org');
    expect(parse('wwwhatsnew.com')).toBe('wwwhatsnew.com');
    expect(domainFilterSchema.safeParse('not a domain').success).toBe(false);
  });
});
