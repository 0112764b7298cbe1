import { describe, expect, it } from 'vitest';
import { ruleExpansions } from './autoprompt.js';
import { windowBounds, withinWindow } from './dates.js';
import { keyPhrases } from './keyphrases.js';
import { queriesFromSource } from './similar.js';
import { passesDomains } from '../web-search/domain-filter.js';
import { financeFocus } from '../web-search/engine-plans.js';

describe('rule-based query expansion', () => {
  it('turns a question into its keywords and adds the category focus', () => {
    expect(ruleExpansions('How do I fix a flat bicycle tyre?', undefined)).toEqual(['fix flat bicycle tyre']);
    expect(ruleExpansions('What is CRISPR gene editing?', 'academic')).toEqual([
      'CRISPR gene editing',
      'CRISPR gene editing research paper',
    ]);
    expect(ruleExpansions('rust async runtime', 'tech')).toEqual(['rust async runtime documentation']);
  });

  it('drops the words of the one stop-word list (services/ranking/tokens.ts) and a leading "please"', () => {
    expect(ruleExpansions('How do I help someone who stopped breathing?', undefined)).toEqual([
      'help someone stopped breathing',
    ]);
    expect(ruleExpansions('please explain how vaccines work without adjuvants', undefined)).toEqual([
      'vaccines work adjuvants',
    ]);
  });

  it('never repeats the original query and keeps at most three expansions', () => {
    expect(ruleExpansions('solar panels', undefined)).toEqual([]);
    const many = ruleExpansions('why are the long-term effects of intermittent fasting on metabolism debated?', 'news');
    expect(many.length).toBeLessThanOrEqual(3);
    expect(new Set(many.map((q) => q.toLowerCase())).size).toBe(many.length);
  });

  it('finance focuses news queries unless they already are about finance', () => {
    expect(financeFocus('Tesla')).toBe('Tesla finance');
    expect(financeFocus('Tesla earnings call')).toBe('Tesla earnings call');
  });
});

describe('published-date window', () => {
  it('includes the whole end day and leaves undated pages out', () => {
    const bounds = windowBounds({ start: '2024-01-01', end: '2024-01-31' });
    expect(withinWindow('2024-01-31T23:00:00Z', bounds)).toBe(true);
    expect(withinWindow('2024-02-01T00:00:01Z', bounds)).toBe(false);
    expect(withinWindow('2023-12-31', bounds)).toBe(false);
    expect(withinWindow(null, bounds)).toBe(false);
    expect(withinWindow(null, windowBounds({}))).toBe(true);
  });
});

describe('domain filters', () => {
  it('match subdomains and ignore www', () => {
    expect(passesDomains('https://www.example.com/a', { include: ['example.com'] })).toBe(true);
    expect(passesDomains('https://docs.example.com/a', { include: ['example.com'] })).toBe(true);
    expect(passesDomains('https://notexample.com/a', { include: ['example.com'] })).toBe(false);
    expect(passesDomains('https://blog.spam.net/', { exclude: ['spam.net'] })).toBe(false);
  });
});

describe('key phrases', () => {
  it('finds the recurring multi-word phrases of a text', () => {
    const text =
      'Solar panels convert sunlight. Rooftop solar panels need a grid connection. Battery storage pairs ' +
      'well with rooftop solar panels. ' +
      'The grid connection costs money.';
    const phrases = keyPhrases(text, 3).map((p) => p.phrase);
    expect(phrases[0]).toBe('solar panels');
    expect(phrases).toContain('grid connection');
  });

  it('builds searches for similar pages from a title and the text', () => {
    const queries = queriesFromSource(
      'Growing tomatoes on a balcony | Garden Weekly',
      'Tomatoes on a balcony need six hours of sun. Balcony tomatoes grow well in large pots.',
    );
    expect(queries[0]).toBe('Growing tomatoes on a balcony');
    expect(queries[1]).toMatch(/tomatoes/);
  });
});
