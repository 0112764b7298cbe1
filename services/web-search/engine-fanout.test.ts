import { describe, expect, it } from 'vitest';
import type { EngineQuery, EngineResult } from '../../core/engine.js';
import type { EngineService } from '../engines/engine-service.js';
import { fanOut, type FanoutOptions } from './engine-fanout.js';

interface FakeEngine {
  paging: boolean;
  /** The results of one page. */
  page(page: number): EngineResult[];
}

/** Engines answering pages from functions, counting the pages each was asked for. */
function pagedEngines(definitions: Record<string, FakeEngine>): {
  engines: EngineService;
  asked: Record<string, number[]>;
} {
  const asked: Record<string, number[]> = Object.fromEntries(Object.keys(definitions).map((id) => [id, []]));
  const engines = {
    get: (id: string) => ({
      manifest: { categories: ['general'], supports: { paging: definitions[id]!.paging, maxPage: 0 } },
    }),
    weight: () => 1,
    timeoutMs: () => 1000,
    async search(id: string, query: EngineQuery): Promise<EngineResult[]> {
      asked[id]!.push(query.page);
      return definitions[id]!.page(query.page);
    },
  };
  return { engines: engines as unknown as EngineService, asked };
}

/** n results of a page, their URLs naming the site, the page and the position. */
const results =
  (site: string, n: number) =>
  (page: number): EngineResult[] =>
    Array.from({ length: n }, (_, i) => ({
      url: `https://${site}.example/p${page}/${i}`,
      title: `${site} ${page} ${i}`,
      snippet: '',
    }));

const base = {
  query: { query: 'q', language: 'en', safeSearch: 1 as const },
  firstPage: 1,
  signal: new AbortController().signal,
};
const options = (
  engines: string[],
  wanted: Pick<FanoutOptions, 'wantedInAll'> | Pick<FanoutOptions, 'wantedPerEngine'>,
): FanoutOptions => ({ ...base, engines, deadline: performance.now() + 5000, ...wanted }) as FanoutOptions;

describe('fanning out to engines', () => {
  const nine = { paging: true, page: results('nine', 9) };
  const many = { paging: true, page: results('many', 28) };

  it('does not page an engine a result short when the engines together hold enough', async () => {
    const { engines, asked } = pagedEngines({ nine, many });
    const outcomes = await fanOut(engines, options(['nine', 'many'], { wantedInAll: 10 }));
    expect(asked).toEqual({ nine: [1], many: [1] });
    expect(outcomes.map((o) => o.results.length)).toEqual([9, 28]);
  });

  it("keys each result by its normalised URL as its engine's page arrives", async () => {
    const tracked = {
      paging: false,
      page: () => [
        { url: 'http://www.Site.example/a/?utm_source=x', title: 'a', snippet: '' },
        { url: 'https://site.example/b', title: 'b', snippet: '' },
      ],
    };
    const { engines } = pagedEngines({ tracked });
    const [outcome] = await fanOut(engines, options(['tracked'], { wantedPerEngine: 2 }));
    expect(outcome!.keys).toEqual(['site.example/a', 'site.example/b']);
  });

  it('pages an engine alone until it has what was wanted', async () => {
    const { engines, asked } = pagedEngines({ nine });
    await fanOut(engines, options(['nine'], { wantedInAll: 10 }));
    expect(asked.nine).toEqual([1, 2]);
  });

  it('pages each engine up to its share of a larger count at once', async () => {
    const { engines, asked } = pagedEngines({ nine, many });
    await fanOut(engines, options(['nine', 'many'], { wantedInAll: 60 }));
    expect(asked).toEqual({ nine: [1, 2, 3, 4], many: [1, 2] });
  });

  it('tops up, a page per engine per round, when the engines overlap and together still hold too few', async () => {
    // "echo" repeats "fixed"'s only page on its first page, then has pages of its own.
    const fixed = { paging: false, page: results('fixed', 9) };
    const echo = { paging: true, page: (n: number) => (n === 1 ? results('fixed', 9)(1) : results('echo', 9)(n)) };
    const { engines, asked } = pagedEngines({ fixed, echo });
    const outcomes = await fanOut(engines, options(['fixed', 'echo'], { wantedInAll: 20 }));
    // Share 10: echo pages to 18 of its own; 18 distinct in all is short of 20, so one more round.
    expect(asked).toEqual({ fixed: [1], echo: [1, 2, 3] });
    expect(outcomes.find((o) => o.engine === 'echo')!.pages).toBe(3);
  });

  it('keeps asking each engine for its own count when that is what the caller wants', async () => {
    const { engines, asked } = pagedEngines({ nine, many });
    await fanOut(engines, options(['nine', 'many'], { wantedPerEngine: 10 }));
    expect(asked).toEqual({ nine: [1, 2], many: [1] });
  });
});
