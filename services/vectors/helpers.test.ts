import { describe, expect, it } from 'vitest';
import { domainPredicate, purgeFilter, searchFilter, sqlString } from './filters.js';
import { cosineScore, reciprocalRankFusion, textScore } from './fusion.js';
import { pagesOverLimit } from './retention.js';
import { domainOf, parseIsoDate } from './schema.js';

describe('page index helpers', () => {
  it('quotes SQL strings so values cannot end the literal', () => {
    expect(sqlString(`it's`)).toBe(`'it''s'`);
    expect(sqlString(`a\\'b`)).toBe(`'a\\''b'`);
    expect(() => sqlString('a\0b')).toThrow(/NUL/);
    expect(domainPredicate('WWW.Example.com.')).toBe(`(domain = 'example.com' OR ends_with(domain, '.example.com'))`);
  });

  it('builds search and purge filters', () => {
    expect(searchFilter({})).toBeUndefined();
    expect(searchFilter({ includeDomains: [], publishedAfter: '2024-01-01' })).toBe(
      `published_at >= ${Date.UTC(2024, 0, 1)}`,
    );
    expect(searchFilter({ publishedBefore: '2024-01-01' })).toBe(`published_at <= ${Date.UTC(2024, 0, 2) - 1}`);
    expect(purgeFilter({ all: true, url: 'x' })).toBe('true');
    expect(purgeFilter({ url: 'x', fetchedBefore: new Date(5) })).toBe(`url = 'x' AND fetched_at < 5`);
  });

  it('reads dates as UTC unless they carry a zone', () => {
    expect(parseIsoDate('2024-03-01T10:00:00')).toBe(Date.UTC(2024, 2, 1, 10));
    expect(parseIsoDate('2024-03-01T10:00:00+02:00')).toBe(Date.UTC(2024, 2, 1, 8));
    expect(parseIsoDate('yesterday')).toBeNull();
    expect(domainOf('https://WWW.News.Example.com:8443/a?b')).toBe('news.example.com');
  });

  it('maps distances and BM25 into [0, 1] and normalises RRF', () => {
    expect(cosineScore(0)).toBe(1);
    expect(cosineScore(1.5)).toBe(0);
    expect(textScore(3)).toBeCloseTo(0.75);
    const fused = [
      ...reciprocalRankFusion([
        ['a', 'b', 'c'],
        ['b', 'd'],
      ]),
    ];
    expect(fused.map(([key]) => key)).toEqual(['b', 'a', 'd', 'c']); // d is 2nd in a list, c 3rd;
    expect(fused[1]![1]).toBeCloseTo(0.5);
    expect(reciprocalRankFusion([['x'], ['x']]).get('x')).toBeCloseTo(1);
  });

  it('picks whole pages, oldest first, to get under the chunk bound', () => {
    const pages = [
      { url: 'new', fetchedAt: 3, chunks: 4 },
      { url: 'old', fetchedAt: 1, chunks: 2 },
      { url: 'mid', fetchedAt: 2, chunks: 3 },
    ];
    expect(pagesOverLimit(pages, 9)).toEqual([]);
    expect(pagesOverLimit(pages, 8)).toEqual(['old']);
    expect(pagesOverLimit(pages, 4)).toEqual(['old', 'mid']);
    expect(pagesOverLimit(pages, 0)).toEqual(['old', 'mid', 'new']);
  });
});
