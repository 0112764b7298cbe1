import { describe, expect, it } from 'vitest';
import { searxngSearchInputSchema } from './schemas.js';
import { planSearch } from './request.js';

const engines = { has: (id: string) => ['bing', 'bing_news', 'duckduckgo', 'arxiv'].includes(id) };
const plan = (params: Record<string, unknown>) => planSearch(searxngSearchInputSchema.parse({ q: 'x', ...params }), engines);

describe('a SearXNG request as a Quarry search', () => {
  it('reads snippets only, 20 a page, with the engines bounded by 4 s unless timeout_limit says otherwise', () => {
    const { input } = plan({ pageno: 3 });
    expect(input).toMatchObject({ query: 'x', scrape_content: false, max_results: 20, page: 3, timeout: 4, explain: true });
    expect(input.engines).toBeUndefined();
    expect(plan({ timeout_limit: 9 }).input.timeout).toBe(9);
  });

  it('takes engine names as SearXNG writes them and reports the ones Quarry lacks', () => {
    const { input, unknownEngines } = plan({ engines: ['bing news', 'Bing', 'google', 'google'] });
    expect(input.engines).toEqual(['bing_news', 'bing']);
    expect(unknownEngines).toEqual(['google']);
  });

  it('maps categories (science is science and academic), ignoring unknown ones; engines win over categories', () => {
    expect(plan({ categories: ['science', 'videos', 'nonsense'] }).input.categories).toEqual(['science', 'academic', 'video']);
    expect(plan({ categories: ['nonsense'] }).input.categories).toBeUndefined();
    expect(plan({ categories: ['news'], engines: ['arxiv'] }).input).toMatchObject({ engines: ['arxiv'] });
  });

  it('treats empty values as not set, and maps safesearch and language', () => {
    const empty = plan({ time_range: '', safesearch: '', language: '' }).input;
    expect(empty).toMatchObject({ safe_search: 'moderate', language: 'en' });
    expect(empty.time_range).toBeUndefined();
    expect(plan({ safesearch: '0', time_range: 'week', language: 'de-DE' }).input).toMatchObject({ safe_search: 'off', time_range: 'week', language: 'de-DE' });
    expect(plan({ safesearch: '2', language: 'all' }).input).toMatchObject({ safe_search: 'strict', language: 'all' });
    expect(plan({ language: 'auto' }).input.language).toBe('en');
    expect(plan({ language: 'zh-Hans-CN' }).input.language).toBe('zh');
    expect(() => plan({ language: '<x>' })).toThrow(/language/);
  });

  it('refuses formats other than json, naming format', () => {
    expect(searxngSearchInputSchema.safeParse({ q: 'x', format: 'csv' }).error?.issues[0]?.message).toMatch(/only format=json/);
  });
});
