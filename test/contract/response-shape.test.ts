/** The contract suite's field checker: what it accepts and what it catches. */
import { describe, expect, it } from 'vitest';
import { field, shapeProblems, withoutVolatile } from './response-shape.js';

const table = [
  field('query', 'string'),
  field('results[].url', 'string'),
  field('results[].published_date', 'string|null'),
  field('results[].score', 'number'),
  field('results[].rank', 'integer'),
  field('results[].scraped', 'object', { optional: true }),
  field('results[].scraped.text', 'string'),
  field('groups{}[].title', 'string'),
  field('id', 'string', { pattern: /^req_/ }),
];

const answer = () => ({
  query: 'q',
  id: 'req_1',
  results: [
    { url: 'https://a.example/', published_date: null, score: 0.5, rank: 1, scraped: { text: 'x' } },
    { url: 'https://b.example/', published_date: '2025-01-01', score: 1, rank: 2 },
  ],
  groups: { q: [{ title: 'A' }], r: [] },
});

describe('shapeProblems', () => {
  it('accepts an answer that follows the table', () => {
    expect(shapeProblems(answer(), table, { strict: true })).toEqual([]);
  });

  it('catches a renamed field', () => {
    const renamed = answer() as any;
    renamed.results[1].publishedDate = renamed.results[1].published_date;
    delete renamed.results[1].published_date;
    expect(shapeProblems(renamed, table, { strict: true })).toEqual([
      'results[1].published_date is missing (string|null)',
    ]);
  });

  it('catches a wrong type, a null where none is allowed, a float where an integer belongs, and a bad pattern', () => {
    const wrong = answer() as any;
    wrong.query = 3;
    wrong.results[0].url = null;
    wrong.results[0].rank = 1.5;
    wrong.groups.q[0].title = ['A'];
    wrong.id = 'job_1';
    expect(shapeProblems(wrong, table, { strict: true })).toEqual([
      'query is 3, not string',
      'results[0].url is null, not string',
      'results[0].rank is 1.5, not integer',
      'groups.q[0].title is ["A"], not string',
      'id "job_1" does not match /^req_/',
    ]);
  });

  it('checks fields inside an optional object only where it is present', () => {
    const bad = answer() as any;
    bad.results[0].scraped = { body: 'x' };
    expect(shapeProblems(bad, table, { strict: true })).toEqual(['results[0].scraped.text is missing (string)']);
  });

  it('fails a vacuous check in strict mode: an empty list proves nothing', () => {
    const empty = { ...answer(), results: [] };
    expect(shapeProblems(empty, table, { strict: true })).toContain('results[].url: no value to check (empty list?)');
    expect(shapeProblems(empty, table, { strict: false })).toEqual([]);
  });
});

describe('withoutVolatile', () => {
  it('masks ids, clocks and cache state, by key anywhere and by path', () => {
    const masked = withoutVolatile(
      { request_id: 'req_1', results: [{ timing: { total_ms: 3 }, url: 'u' }], markdown: 'took 3 ms' },
      ['markdown'],
    );
    expect(masked).toEqual({
      request_id: '<volatile>',
      results: [{ timing: '<volatile>', url: 'u' }],
      markdown: '<volatile>',
    });
  });
});

describe('shapeProblems on a closed table', () => {
  it('accepts an answer that has only declared fields, maps and opaque objects included', () => {
    const opaque = [...table, field('meta', 'object')];
    expect(shapeProblems({ ...answer(), meta: { anything: 1 } }, opaque, { strict: true, closed: true })).toEqual([]);
  });

  it('names a field the table does not declare, at any depth', () => {
    const extra = answer() as any;
    extra.surprise = 1;
    extra.results[0].scraped.html = '<p>';
    extra.groups.q[0].subtitle = 'B';
    expect(shapeProblems(extra, table, { strict: true, closed: true })).toEqual([
      'results[0].scraped.html is not declared',
      'groups.q[0].subtitle is not declared',
      'surprise is not declared',
    ]);
    expect(shapeProblems(extra, table, { strict: true })).toEqual([]);
  });
});
