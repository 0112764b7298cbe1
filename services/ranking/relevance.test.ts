import { describe, expect, it } from 'vitest';
import { filterByRelevance, lexicalRelevance } from './relevance.js';

const DEFAULT_MIN = 0.15;

describe('lexicalRelevance', () => {
  const query = 'rust async runtime';

  it('gives an empty or punctuation-only query 1', () => {
    expect(lexicalRelevance('', { title: 'anything', snippet: '' })).toBe(1);
    expect(lexicalRelevance('?!', { title: 'anything', snippet: '' })).toBe(1);
  });

  it('scores a clearly unrelated result 0, below the default threshold', () => {
    const unrelated = { title: 'Best chocolate cake recipe', snippet: 'Bake for 30 minutes at 180 degrees.' };
    expect(lexicalRelevance(query, unrelated)).toBe(0);
    expect(lexicalRelevance(query, unrelated)).toBeLessThan(DEFAULT_MIN);
  });

  it('keeps a result with one of three terms in the snippet (0.2) at the default threshold', () => {
    const weak = { title: 'Programming language news', snippet: 'A look at Rust in 2024.' };
    expect(lexicalRelevance(query, weak)).toBeCloseTo(0.2, 10);
    expect(lexicalRelevance(query, weak)).toBeGreaterThanOrEqual(DEFAULT_MIN);
  });

  it('weighs title matches above snippet matches', () => {
    const inTitle = lexicalRelevance(query, { title: 'Tokio: an async runtime', snippet: '' });
    const inSnippet = lexicalRelevance(query, { title: 'Tokio', snippet: 'An async runtime.' });
    expect(inTitle).toBeCloseTo(2 / 3, 10);
    expect(inSnippet).toBeCloseTo(0.4, 10);
    expect(inTitle).toBeGreaterThan(inSnippet);
  });

  it('matches inflected forms and ignores stop words in the query', () => {
    expect(lexicalRelevance('how to install the packages', { title: 'Installing a package', snippet: '' })).toBe(1);
  });

  it('adds a bonus for the exact phrase and stays within [0, 1]', () => {
    const scattered = lexicalRelevance('async runtime', { title: '', snippet: 'runtime for async code' });
    const phrase = lexicalRelevance('async runtime', { title: '', snippet: 'an async runtime for Rust' });
    expect(scattered).toBeCloseTo(0.6, 10);
    expect(phrase).toBeCloseTo(0.8, 10);
    const full = lexicalRelevance('async runtime', { title: 'Async runtime', snippet: 'async runtime' });
    expect(full).toBe(1);
  });

  it('uses the page text when given', () => {
    const doc = { title: 'Home', snippet: 'Welcome', text: 'This crate provides an async runtime.' };
    expect(lexicalRelevance(query, doc)).toBeCloseTo(0.4, 10);
  });

  it('never drops when a query term occurrence is added', () => {
    const base = { title: 'Rust', snippet: 'systems language' };
    const additions = [' async', ' runtime', ' rust async runtime', ' Rust'];
    let previous = lexicalRelevance(query, base);
    for (const addition of additions) {
      for (const field of ['title', 'snippet'] as const) {
        const next = lexicalRelevance(query, { ...base, [field]: base[field] + addition });
        expect(next).toBeGreaterThanOrEqual(previous);
      }
    }
    previous = lexicalRelevance(query, { ...base, snippet: 'async' });
    expect(lexicalRelevance(query, { ...base, snippet: 'async async runtime' })).toBeGreaterThanOrEqual(previous);
  });
});

describe('filterByRelevance', () => {
  it('keeps related items, drops unrelated ones and reports every score', () => {
    const items = [
      { id: 1, title: 'Tokio async runtime', snippet: '' },
      { id: 2, title: 'Chocolate cake', snippet: 'Bake it.' },
      { id: 3, title: 'News', snippet: 'Rust 1.80 released' },
    ];
    const { kept, dropped, scores } = filterByRelevance(items, 'rust async runtime', DEFAULT_MIN, (item) => item);
    expect(kept.map((i) => i.id)).toEqual([1, 3]);
    expect(dropped).toBe(1);
    expect(scores).toHaveLength(3);
    expect(scores[1]).toBe(0);
  });

  it('keeps everything at threshold 0', () => {
    const items = [{ title: 'x', snippet: 'y' }];
    expect(filterByRelevance(items, 'unrelated', 0, (i) => i).kept).toEqual(items);
  });
});
