import { describe, expect, it } from 'vitest';
import { searxngSearchInputSchema } from './schemas.js';
import { planSearch } from './request.js';

const engines = { has: (id: string) => ['bing', 'bing_news', 'duckduckgo', 'arxiv'].includes(id) };
const plan = (params: Record<string, unknown>) =>
  planSearch(searxngSearchInputSchema.parse({ q: 'x', ...params }), engines);

describe('a SearXNG request as one metasearch', () => {
  it('asks for the page named, with the engines bounded by 4 s unless timeout_limit says otherwise', () => {
    const asked = plan({ pageno: 3 });
    expect(asked).toMatchObject({ query: 'x', page: 3, timeoutSeconds: 4, language: 'en', safeSearch: 1 });
    expect(asked.engines).toBeUndefined();
    expect(plan({ timeout_limit: 9 }).timeoutSeconds).toBe(9);
  });

  it('takes engine names as SearXNG writes them and reports the ones Quarry lacks', () => {
    const { engines: asked, unknownEngines } = plan({ engines: ['bing news', 'Bing', 'google', 'google'] });
    expect(asked).toEqual(['bing_news', 'bing']);
    expect(unknownEngines).toEqual(['google']);
  });

  it('maps categories (science is science and academic), ignoring unknown ones; engines win over categories', () => {
    expect(plan({ categories: ['science', 'videos', 'nonsense'] }).categories).toEqual([
      'science',
      'academic',
      'video',
    ]);
    expect(plan({ categories: ['nonsense'] }).categories).toBeUndefined();
    const both = plan({ categories: ['news'], engines: ['arxiv'] });
    expect(both.engines).toEqual(['arxiv']);
    expect(both.categories).toBeUndefined();
  });

  it('treats empty values as not set, and maps safesearch and language', () => {
    const empty = plan({ time_range: '', safesearch: '', language: '' });
    expect(empty).toMatchObject({ safeSearch: 1, language: 'en' });
    expect(empty.timeRange).toBeUndefined();
    expect(plan({ safesearch: '0', time_range: 'week', language: 'de-DE' })).toMatchObject({
      safeSearch: 0,
      timeRange: 'week',
      language: 'de-DE',
    });
    expect(plan({ safesearch: '2', language: 'all' })).toMatchObject({ safeSearch: 2, language: 'all' });
    expect(plan({ language: 'auto' }).language).toBe('en');
    expect(plan({ language: 'zh-Hans-CN' }).language).toBe('zh');
    expect(() => plan({ language: '<x>' })).toThrow(/language/);
  });

  it('refuses formats other than json, naming format', () => {
    expect(searxngSearchInputSchema.safeParse({ q: 'x', format: 'csv' }).error?.issues[0]?.message).toMatch(
      /only format=json/,
    );
  });
});
