import type { Keyv } from 'keyv';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../core/errors.js';
import type { EngineQuery, EngineResult } from '../../core/engine.js';
import type { EngineService } from '../engines/engine-service.js';
import type { Scraper } from '../scrape/scraper.js';
import { AnswerCache } from './answer-cache.js';
import { findPages } from './find-pages.js';
import { WebSearch } from './web-search.js';

/** Engines answering from tables: per engine and query, a result list or a failure. */
function tableEngines(answers: Record<string, Record<string, EngineResult[] | AppError>>): EngineService {
  const ids = Object.keys(answers);
  const engines = {
    ids: () => ids,
    has: (id: string) => ids.includes(id),
    canonicalId: (id: string) => id,
    disabledReason: () => null,
    get: (_id: string) => ({ manifest: { categories: ['general'], supports: { paging: false, maxPage: 0 } } }),
    weight: () => 1,
    timeoutMs: () => 1000,
    async search(id: string, query: EngineQuery): Promise<EngineResult[]> {
      const answer = answers[id]![query.query] ?? [];
      if (answer instanceof AppError) throw answer;
      return answer;
    },
  };
  return engines as unknown as EngineService;
}

const page = (url: string, title = url): EngineResult => ({ url, title, snippet: '' });
const base = { resultsPerEngine: 10, language: 'en', safeSearch: 1 as const, signal: new AbortController().signal };

describe('finding pages', () => {
  const engines = tableEngines({
    alpha: {
      q1: [page('https://a.example/1'), page('https://www.shared.example/x')],
      q2: [page('https://a.example/2')],
    },
    beta: {
      q1: [page('http://shared.example/x/'), page('https://b.example/1')],
      q2: new AppError('UPSTREAM_FAILED', 'beta is down'),
    },
  });

  it('interleaves the queries rank by rank, merges one page found twice, and applies domain filters and earlier rounds', async () => {
    const found = await findPages(engines, {
      ...base,
      plans: [
        { engine: 'alpha', query: 'q1' },
        { engine: 'beta', query: 'q1' },
        { engine: 'alpha', query: 'q2' },
        { engine: 'beta', query: 'q2' },
      ],
      deadline: performance.now() + 5000,
    });
    // q1's best (found by both engines) first, then q2's best, then q1's second …
    expect(found.pages.map((p) => p.result.url)).toEqual([
      'https://www.shared.example/x',
      'https://a.example/2',
      'https://a.example/1',
      'https://b.example/1',
    ]);
    expect(found.pages[0]!.result.engines).toEqual(['alpha', 'beta']);
    // beta answered q1, so failing q2 does not count it as failed.
    expect(found.engines).toMatchObject({ used: ['alpha', 'beta'], succeeded: ['alpha', 'beta'], failed: [] });

    const filtered = await findPages(engines, {
      ...base,
      plans: [
        { engine: 'alpha', query: 'q1' },
        { engine: 'beta', query: 'q1' },
      ],
      domains: { exclude: ['a.example'] },
      skip: new Set(['shared.example/x']),
      deadline: performance.now() + 5000,
    });
    expect(filtered.pages.map((p) => p.result.url)).toEqual(['https://b.example/1']);
  });

  it('metasearch answers merged results with every engine position, and names the engines that did not answer', async () => {
    const search = new WebSearch({
      engines,
      scraper: {} as Scraper,
      cache: new AnswerCache({} as Keyv, 'search'),
      defaultEngines: ['alpha', 'beta'],
    });
    const answer = await search.meta({
      query: 'q2',
      language: 'en',
      page: 1,
      safeSearch: 1,
      deadline: performance.now() + 5000,
      signal: base.signal,
    });
    expect(answer.engines).toEqual(['alpha', 'beta']);
    expect(answer.results.map((r) => [r.url, r.positions])).toEqual([
      ['https://a.example/2', [{ engine: 'alpha', position: 1 }]],
    ]);
    expect(answer.unresponsive).toEqual([{ engine: 'beta', code: 'UPSTREAM_FAILED', message: 'beta is down' }]);
  });
});
