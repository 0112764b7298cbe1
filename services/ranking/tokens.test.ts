import { describe, expect, it } from 'vitest';
import { lexicalRelevance } from './relevance.js';
import { contentTerms, contentTokens, isStopWord, stem, tokenize, words, writtenWords } from './tokens.js';
import { FINANCE, SPEECH } from './fixtures/real-texts.js';

describe('tokenize and stem', () => {
  it('lower-cases, folds accents, splits on non-word characters', () => {
    expect(tokenize('Café-Résumé: C++ 2024!')).toEqual(['caf', 'resum', 'c', '2024']);
  });

  it('maps plural, -ing and -ed forms to one stem', () => {
    for (const group of [
      ['use', 'uses', 'used', 'using'],
      ['make', 'makes', 'making'],
      ['run', 'runs', 'running'],
      ['study', 'studies', 'studied'],
      ['class', 'classes'],
      ['cache', 'cached', 'caching'],
      ['free', 'freed'],
    ]) {
      expect(new Set(group.map(stem)), group.join('/')).toHaveProperty('size', 1);
    }
  });

  it('leaves short or vowel-less endings alone', () => {
    expect(stem('string')).toBe('string');
    expect(stem('thing')).toBe('thing');
    expect(stem('red')).toBe('red');
    expect(stem('analysis')).toBe('analysis');
    expect(stem('status')).toBe('status');
  });

  it('cuts plain ASCII text as the full Unicode path does', () => {
    // A non-ASCII character appended sends the same text through the Unicode path; its tokens must be the same.
    const lines = `${SPEECH}\n${FINANCE}`.split('\n').filter((line) => line.trim() && !/[^\x00-\x7f]/.test(line));
    expect(lines.length).toBeGreaterThan(50);
    for (const line of lines) expect(tokenize(`${line} é`)).toEqual([...tokenize(line), 'e']);
  });

  it('splits scripts written without spaces into character pairs', () => {
    expect(tokenize('机器学习')).toEqual(['机器', '器学', '学习']);
    expect(lexicalRelevance('机器学习', { title: '什么是机器学习？', snippet: '' })).toBe(1);
  });

  it('keeps stop words out of content tokens, and lone letters out of content terms', () => {
    expect(contentTokens("What's the most common cause of it?")).toEqual(['s', 'common', 'caus']);
    expect(contentTerms("What's the most common cause of it?")).toEqual(['common', 'caus']);
  });

  it('leaves stop words unstemmed, so a stemmed stop word cannot pass for a content word', () => {
    // "those" would stem to "thos" and "here" to "her": both must stay stop words after tokenize().
    for (const word of ['those', 'here', 'because', 'once', 'having']) {
      expect(isStopWord(stem(word)), word).toBe(true);
    }
  });
});

describe('words and writtenWords', () => {
  it('gives the words tokenize() stems: lower case, accents folded, neither stemmed nor paired', () => {
    expect(words('Crème brûlée RECIPES, 2nd edition')).toEqual(['creme', 'brulee', 'recipes', '2nd', 'edition']);
    expect(words('東京タワー visits')).toEqual(['東京タワー', 'visits']);
    expect(tokenize('Crème brûlée RECIPES')).toEqual(words('Crème brûlée RECIPES').map(stem));
  });

  it('keeps a query word as written, its edge punctuation trimmed', () => {
    expect(writtenWords('"Does the U.S. ban COVID-19 tests?"  (it\'s said)')).toEqual([
      'Does',
      'the',
      'U.S',
      'ban',
      'COVID-19',
      'tests',
      "it's",
      'said',
    ]);
    expect(writtenWords(' -- ')).toEqual([]);
  });
});
