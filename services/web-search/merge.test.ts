import { describe, expect, it } from 'vitest';
import type { EngineResult } from '../../core/engine.js';
import { mergeEngineResults } from './merge.js';

function result(url: string, title = url, snippet = '', extra: Partial<EngineResult> = {}): EngineResult {
  return { url, title, snippet, ...extra };
}

describe('mergeEngineResults', () => {
  it('merges the same page found by two engines, keeping both engines and positions', () => {
    const merged = mergeEngineResults([
      {
        engine: 'duckduckgo',
        weight: 1,
        results: [
          result('http://www.example.com/guide/?utm_source=ddg', 'Guide', 'short'),
          result('https://other.org/a', 'Other'),
        ],
      },
      {
        engine: 'brave',
        weight: 1,
        results: [
          result('https://b.net/x', 'B'),
          result('https://example.com/guide#top', 'Guide (brave)', 'a much longer snippet'),
        ],
      },
    ]);
    expect(merged).toHaveLength(3);
    const guide = merged[0]!;
    expect(guide.engines).toEqual(['duckduckgo', 'brave']);
    expect(guide.positions).toEqual([
      { engine: 'duckduckgo', position: 1 },
      { engine: 'brave', position: 2 },
    ]);
    // The first-seen URL, upgraded to the https variant; the first title; the longest snippet.
    expect(guide.url).toBe('https://example.com/guide#top');
    expect(guide.title).toBe('Guide');
    expect(guide.snippet).toBe('a much longer snippet');
    expect(guide.score).toBe(1);
  });

  it('groups by the keys a list brings along, when it has them, and keys a list without them itself', () => {
    const merged = mergeEngineResults([
      {
        engine: 'a',
        weight: 1,
        results: [result('https://one.example/'), result('https://two.example/')],
        keys: ['same', 'other'],
      },
      { engine: 'b', weight: 1, results: [result('https://three.example/')], keys: ['same'] },
      { engine: 'c', weight: 1, results: [result('https://www.two.example')] },
    ]);
    expect(merged.map((m) => [m.url, m.engines])).toEqual([
      ['https://one.example/', ['a', 'b']],
      ['https://www.two.example', ['c']],
      ['https://two.example/', ['a']],
    ]);
  });

  it('keeps the original URL when no duplicate is https', () => {
    const [only] = mergeEngineResults([
      { engine: 'a', weight: 1, results: [result('http://example.com/page?utm_medium=x')] },
      { engine: 'b', weight: 1, results: [result('http://www.example.com/page')] },
    ]);
    expect(only!.url).toBe('http://example.com/page?utm_medium=x');
  });

  it('scores agreement: a result found by two engines beats a single first place', () => {
    // single: 1 × 1/1 = 1; shared: 2 × (1/2 + 1/2) = 2.
    const merged = mergeEngineResults([
      { engine: 'a', weight: 1, results: [result('https://single.example/'), result('https://shared.example/')] },
      { engine: 'b', weight: 1, results: [result('https://b-only.example/'), result('https://shared.example/')] },
    ]);
    expect(merged.map((r) => r.url)).toEqual([
      'https://shared.example/',
      'https://single.example/',
      'https://b-only.example/',
    ]);
    expect(merged.map((r) => r.rawScore)).toEqual([2, 1, 1]);
    expect(merged.map((r) => r.score)).toEqual([1, 0.5, 0.5]);
  });

  it('lets weights change the order', () => {
    const lists = (weightA: number, weightB: number) => [
      { engine: 'a', weight: weightA, results: [result('https://from-a.example/')] },
      { engine: 'b', weight: weightB, results: [result('https://from-b.example/')] },
    ];
    expect(mergeEngineResults(lists(1, 1)).map((r) => r.url)).toEqual([
      'https://from-a.example/',
      'https://from-b.example/',
    ]);
    expect(mergeEngineResults(lists(1, 2)).map((r) => r.url)).toEqual([
      'https://from-b.example/',
      'https://from-a.example/',
    ]);
    const [top, second] = mergeEngineResults(lists(1, 2));
    expect(top!.score).toBe(1);
    expect(second!.score).toBe(0.5);
  });

  it('breaks ties by best position, then by engine order, deterministically', () => {
    const merged = mergeEngineResults([
      { engine: 'a', weight: 1, results: [result('https://a1.example/'), result('https://a2.example/')] },
      { engine: 'b', weight: 2, results: [result('https://b1.example/'), result('https://b2.example/')] },
    ]);
    // Raw: b1 = 2, a1 = 1, b2 = 1, a2 = 0.5. a1 and b2 tie: a1 has the better position.
    expect(merged.map((r) => r.url)).toEqual([
      'https://b1.example/',
      'https://a1.example/',
      'https://b2.example/',
      'https://a2.example/',
    ]);

    const tiedPositions = mergeEngineResults([
      { engine: 'first', weight: 1, results: [result('https://first.example/')] },
      { engine: 'second', weight: 1, results: [result('https://second.example/')] },
    ]);
    expect(tiedPositions.map((r) => r.url)).toEqual(['https://first.example/', 'https://second.example/']);
  });

  it('treats float sums that are equal in exact arithmetic as ties', () => {
    // 3 × (0.1 + 0.1 + 0.1) is 0.9000000000000001 in floating point, not 0.9: still a tie, so engine order decides.
    const merged = mergeEngineResults([
      { engine: 'solo', weight: 0.9, results: [result('https://solo.example/')] },
      { engine: 'a', weight: 0.1, results: [result('https://agreed.example/')] },
      { engine: 'b', weight: 0.1, results: [result('https://agreed.example/')] },
      { engine: 'c', weight: 0.1, results: [result('https://agreed.example/')] },
    ]);
    expect(merged.map((r) => r.score)).toEqual([1, 1]);
    expect(merged.map((r) => r.url)).toEqual(['https://solo.example/', 'https://agreed.example/']);
  });

  it('explains each score with contributions that sum to the raw score', () => {
    const merged = mergeEngineResults(
      [
        { engine: 'a', weight: 1, results: [result('https://x.example/'), result('https://shared.example/')] },
        {
          engine: 'b',
          weight: 0.8,
          results: [result('https://y.example/'), result('https://z.example/'), result('https://shared.example/')],
        },
      ],
      { explain: true },
    );
    for (const entry of merged) {
      const explanation = entry.explanation!;
      expect(explanation.formula).toContain('weight / position');
      const sum = explanation.contributions.reduce((total, c) => total + c.contribution, 0);
      expect(sum).toBeCloseTo(entry.rawScore, 10);
    }
    const shared = merged.find((r) => r.url === 'https://shared.example/')!;
    expect(shared.explanation!.contributions).toEqual([
      { engine: 'a', position: 2, weight: 1, contribution: 2 * (1 / 2) },
      { engine: 'b', position: 3, weight: 0.8, contribution: 2 * (0.8 / 3) },
    ]);
    expect(
      mergeEngineResults([{ engine: 'a', weight: 1, results: [result('https://x.example/')] }])[0]!.explanation,
    ).toBeUndefined();
  });

  it('counts an engine once when it lists the same page twice', () => {
    const [top] = mergeEngineResults([
      { engine: 'a', weight: 1, results: [result('https://x.example/'), result('http://www.x.example/')] },
    ]);
    expect(top!.engines).toEqual(['a']);
    expect(top!.positions).toEqual([{ engine: 'a', position: 1 }]);
    expect(top!.rawScore).toBe(1);
  });

  it('fills missing fields from later duplicates and keeps the first value otherwise', () => {
    const [top] = mergeEngineResults([
      {
        engine: 'a',
        weight: 1,
        results: [result('https://x.example/', 'X', 's', { publishedDate: '2024-01-01', extra: { stars: 5 } })],
      },
      {
        engine: 'b',
        weight: 1,
        results: [
          result('https://x.example/', 'X (b)', 's', {
            publishedDate: '2020-01-01',
            thumbnail: 'https://x.example/t.png',
            extra: { stars: 9, lang: 'rust' },
          }),
        ],
      },
    ]);
    expect(top!.publishedDate).toBe('2024-01-01');
    expect(top!.thumbnail).toBe('https://x.example/t.png');
    expect(top!.extra).toEqual({ stars: 5, lang: 'rust' });
  });

  it('scores everything 0 when all weights are 0, and handles empty input', () => {
    expect(mergeEngineResults([])).toEqual([]);
    const merged = mergeEngineResults([{ engine: 'a', weight: 0, results: [result('https://x.example/')] }]);
    expect(merged[0]!.score).toBe(0);
  });
});
