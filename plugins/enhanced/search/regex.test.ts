import { describe, expect, it } from 'vitest';
import { fixturePages } from '../../../test/sandbox/fixture-pages.js';
import { pageBlocks } from '../../../services/page-analysis/text-blocks.js';
import { regexExtract } from '../../../services/extract/regex-extract.js';
import { backtrackingRisk, compilePatterns } from './regex-patterns.js';

const texts = (name: string) => pageBlocks(fixturePages().find((p) => p.name === name)!.html).map((b) => b.text);

describe('regex strategy', () => {
  it('finds the e-mail address and written dates of a real article', () => {
    const matches = regexExtract(
      texts('article-space-review-big-rocket'),
      compilePatterns(['email', 'date'], undefined),
    );
    expect(matches.filter((m) => m.label === 'email').map((m) => m.value)).toContain('jeff@thespacereview.com');
    expect(matches.filter((m) => m.label === 'date_written').map((m) => m.value)).toContain('November 18, 2019');
  });

  it('finds prices and URLs, with offsets pointing into the joined text', () => {
    const blocks = texts('article-audi-etron-sportback');
    const joined = blocks.join('\n\n');
    const matches = regexExtract(blocks, compilePatterns(['price', 'date', 'url'], undefined));
    expect(matches.some((m) => m.label === 'currency')).toBe(true);
    for (const m of matches) expect(joined.slice(m.start, m.end)).toBe(m.value);
  });

  it('matches phones in international and US forms, and ISO and numeric dates', () => {
    const matches = regexExtract(
      [
        'Call +1 415 555 2671 or +49 (30) 1234567, US office (212) 555-0199 or 646.555.0123. Due ' +
          '2024-05-01T10:00:00Z, signed 04/21/2023.',
      ],
      compilePatterns(['phone', 'date'], undefined),
    );
    const of = (label: string) => matches.filter((m) => m.label === label).map((m) => m.value);
    expect(of('phone_international')).toEqual(['+1 415 555 2671', '+49 (30) 1234567']);
    expect(of('phone_us')).toEqual(['(212) 555-0199', '646.555.0123']);
    expect(of('date_iso')).toEqual(['2024-05-01T10:00:00Z']);
    expect(of('date_numeric')).toEqual(['04/21/2023']);
  });

  it('runs custom patterns with flags', () => {
    const matches = regexExtract(
      texts('blog-llm-tuning-math'),
      compilePatterns(undefined, { model: { pattern: 'gpt-(?:3\\.5-turbo|4)', flags: 'i' } }),
    );
    const values = matches.map((m) => m.value);
    expect(values).toEqual(expect.arrayContaining(['gpt-3.5-turbo', 'gpt-4']));
    for (const value of values) expect(value).toMatch(/^gpt-(3\.5-turbo|4)$/i);
    expect(matches.every((m) => m.label === 'model')).toBe(true);
  });

  it('refuses malformed and catastrophic patterns by name', () => {
    expect(() => compilePatterns(undefined, { broken: '[a-' })).toThrow(
      /custom_patterns\.broken: invalid regular expression/,
    );
    expect(() => compilePatterns(undefined, { evil: '^(a+)+$' })).toThrow(
      /custom_patterns\.evil: refused.*nested quantifier/,
    );
    expect(() => compilePatterns(undefined, { evil2: '(\\w*\\s?)*x' })).toThrow(/custom_patterns\.evil2: refused/);
    expect(() => compilePatterns(undefined, { evil3: '(?:a|aa)+b' })).toThrow(
      /custom_patterns\.evil3: refused.*alternation/,
    );
    expect(() => compilePatterns(['postcode'], undefined)).toThrow(/regex_patterns: unknown pattern "postcode"/);
    expect(() => compilePatterns(undefined, { 'bad name!': 'a' })).toThrow(/custom_patterns\.bad name!/);
    expect(() => compilePatterns(undefined, { f: { pattern: 'a', flags: 'y' } })).toThrow(/flags/);
    // Safe shapes pass: bounded repetition, quantifiers inside classes, optional groups.
    for (const ok of ['(ab){2,3}', '[+*]+', '(?:\\d{3}-)?\\d{4}', '(\\w+)@(\\w+)', '(?:com|org)\\b'])
      expect(backtrackingRisk(ok), ok).toBeNull();
  });

  it('stops a pattern that runs away instead of hanging', () => {
    // Passes the static check only because it is handed straight to the matcher.
    expect(() => regexExtract(['a'.repeat(40) + '!'], [{ label: 'evil', source: '^(a+)+$', flags: 'g' }], 200)).toThrow(
      /longer than 200 ms/,
    );
  });
});
