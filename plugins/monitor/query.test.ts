import { describe, expect, it } from 'vitest';
import { isRelevant, monitorQuery, normalizeSource, onSources, urlKey } from './query.js';

describe('monitor query', () => {
  it('normalises sources to domains and refuses what is not one', () => {
    expect(normalizeSource('https://www.Reuters.com/technology/')).toBe('reuters.com');
    expect(normalizeSource('techcrunch.com/ai')).toBe('techcrunch.com');
    expect(normalizeSource('*.example.org')).toBe('example.org');
    expect(normalizeSource('news.bbc.co.uk.')).toBe('news.bbc.co.uk');
    // The one host rule (services/web-search/hosts.ts): a numbered www label is no site of its own.
    expect(normalizeSource('https://www2.Example.com/')).toBe('example.com');
    expect(normalizeSource('WWW1.cbn.com')).toBe('cbn.com');
    expect(normalizeSource('not a domain')).toBeNull();
    expect(normalizeSource('')).toBeNull();
    expect(normalizeSource('mailto:someone@example.org')).toBeNull();
  });

  it('searches the topic, the keywords it lacks, and the sources as site filters', () => {
    expect(monitorQuery({ topic: 'EU AI Act', keywords: ['AI Act', 'enforcement'], sources: null })).toBe(
      'EU AI Act enforcement',
    );
    expect(monitorQuery({ topic: 'solar', keywords: ['perovskite'], sources: ['nature.com'] })).toBe(
      'solar perovskite site:nature.com',
    );
    expect(monitorQuery({ topic: 'solar', keywords: ['perovskite'], sources: ['nature.com', 'science.org'] })).toBe(
      'solar perovskite (site:nature.com OR site:science.org)',
    );
    const long = monitorQuery({
      topic: 'x'.repeat(300),
      keywords: Array.from({ length: 20 }, (_, i) => `keyword${i}${'y'.repeat(90)}`),
      sources: Array.from({ length: 20 }, (_, i) => `site${i}.${'z'.repeat(200)}.org`),
    });
    expect(long.length).toBeLessThanOrEqual(2000);
    expect(long).not.toContain('site:');
  });

  it('keeps results on the sources and their subdomains only', () => {
    expect(onSources('https://www.nature.com/articles/1', ['nature.com'])).toBe(true);
    expect(onSources('https://blogs.nature.com/x', ['nature.com'])).toBe(true);
    expect(onSources('https://notnature.com/x', ['nature.com'])).toBe(false);
    expect(onSources('https://example.org/', null)).toBe(true);
  });

  it('counts a result that holds a keyword (stemmed) or covers the topic', () => {
    const terms = { topic: 'perovskite solar cells', keywords: ['tandem record', 'stability'], sources: null };
    expect(isRelevant(terms, { title: 'New tandem cell sets efficiency records', snippet: '' })).toBe(true);
    expect(isRelevant(terms, { title: 'Perovskite solar cells get cheaper', snippet: '' })).toBe(true);
    expect(isRelevant(terms, { title: 'Tandem bicycles are back', snippet: 'a record year' })).toBe(true);
    expect(isRelevant(terms, { title: 'Weather', snippet: 'rain in the solar system' })).toBe(false);
  });

  it('remembers a URL under one key however it is written', () => {
    expect(urlKey('https://www.example.org/a/?utm_source=x')).toBe(urlKey('http://example.org/a'));
    expect(urlKey('https://example.org/a')).not.toBe(urlKey('https://example.org/b'));
    expect(urlKey('https://example.org/a')).toMatch(/^[0-9a-f]{16}$/);
  });
});
