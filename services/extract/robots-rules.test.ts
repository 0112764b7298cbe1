/**
 * The worker's reduction of robots.txt (robots-rules.ts) keeps exactly the
 * answers robots-parser gives our agent on the whole file: on real-looking
 * files (fixtures/robots, and each in CRLF, CR and with a BOM) and on
 * generated ones, for many URLs built from the files' own patterns.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../core/seeded-random.js';
import { robotsParser } from '../../core/http/robots-cache.js';
import { reduceRobots, robotsAllowAll } from './robots-rules.js';

const FIXTURES = join(import.meta.dirname, 'fixtures', 'robots');
const ORIGIN = 'https://site.example';
/** Our product token as the configuration might spell it. */
const AGENTS = ['Quarry', 'quarry', 'QUARRY/1.0'];

const pick = <T>(next: () => number, items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;

const FILLERS = ['', 'a', 'x/y', 'café', 'Private', '%C3%A9', 'top', 'page/2', 'index.html', 'a?b=1'];
const SUFFIXES = [
  '',
  '/',
  'x',
  '.pdf',
  '.json',
  '?page=2',
  '?q=term',
  '&sort=price',
  '?share=1',
  '/print',
  '/comments/top',
  '?sessionid=abc',
];

/**
 * URLs near each pattern of the file (wildcards filled, end anchors kept or overrun, truncated, case changed) and some
 * far from all.
 */
function urlsFor(contents: string, next: () => number): string[] {
  const patterns = [...contents.matchAll(/^\s*(?:dis)?allow\s*:\s*([^#\r\n]*)/gim)]
    .map((match) => (match[1] ?? '').trim())
    .filter(Boolean);
  const paths = new Set<string>([
    '/',
    '/index.html',
    '/members',
    '/drafts/x',
    '/search?q=a',
    '/p/1/variants/default',
    '/café/menu',
  ]);
  for (const pattern of patterns) {
    for (let i = 0; i < 12; i++) {
      let path = pattern.replace(/\*/g, () => pick(next, FILLERS)).replace(/\$$/, '');
      if (next() < 0.3) path = path.slice(0, Math.max(1, Math.floor(next() * path.length)));
      if (next() < 0.2) path = next() < 0.5 ? path.toUpperCase() : path.toLowerCase();
      paths.add(path.startsWith('/') ? path + pick(next, SUFFIXES) : `/${path}`);
    }
  }
  return [...paths].map((path) => ORIGIN + path);
}

let ruleSets = 0;

function expectSameAnswers(contents: string, urls: string[]): { allowed: number; refused: number } {
  const counts = { allowed: 0, refused: 0 };
  const setId = `set-${++ruleSets}`;
  const whole = robotsParser(`${ORIGIN}/robots.txt`, contents);
  for (const agent of AGENTS) {
    const reduced = reduceRobots(contents, agent);
    // Sitemap lines belong to no group: every agent reads them all, in order.
    expect(reduced.sitemaps).toEqual(whole.getSitemaps());
    const local = robotsParser(`${ORIGIN}/robots.txt`, reduced.text);
    const inWorker = robotsAllowAll(`${setId}-${agent}`, reduced.text, urls)!;
    urls.forEach((url, i) => {
      const expected = whole.isAllowed(url, agent) !== false;
      expect({ agent, url, allowed: local.isAllowed(url, agent) !== false }).toEqual({ agent, url, allowed: expected });
      expect({ agent, url, allowed: inWorker[i] }).toEqual({ agent, url, allowed: expected });
      counts[expected ? 'allowed' : 'refused']++;
    });
  }
  return counts;
}

/** The same file as servers send it: LF, CRLF, CR alone, and with a byte order mark. */
const spellings = (text: string): string[] => [
  text,
  text.replace(/\n/g, '\r\n'),
  text.replace(/\n/g, '\r'),
  `\uFEFF${text}`,
];

describe('robots.txt reduced to the rules Quarry obeys', () => {
  const fixtures = readdirSync(FIXTURES).filter((name) => name.endsWith('.txt'));

  it.each(fixtures)('%s: the reduced rules answer every URL as the whole file does', (name) => {
    const text = readFileSync(join(FIXTURES, name), 'utf8');
    const next = seededRandom(name.length * 7919);
    for (const contents of spellings(text)) {
      const counts = expectSameAnswers(contents, urlsFor(contents, next));
      // Every fixture has pages we may read; all but one (which lets us everywhere) have pages we may not.
      expect(counts.allowed).toBeGreaterThan(0);
      if (name !== 'empty-disallow.txt') expect(counts.refused).toBeGreaterThan(0);
    }
  });

  it('keeps only our group: the rules of other agents and of `*` are left out when a group names us', () => {
    const reduced = reduceRobots(readFileSync(join(FIXTURES, 'quarry-named.txt'), 'utf8'), 'Quarry');
    expect(reduced.count).toBe(9);
    expect(reduced.text).not.toMatch(/Disallow: \/$/m);
    expect(reduced.text).not.toContain('/drafts/');
    expect(reduceRobots(readFileSync(join(FIXTURES, 'empty-disallow.txt'), 'utf8'), 'Quarry')).toEqual({
      text: 'User-agent: *',
      count: 0,
      sitemaps: [],
    });
  });

  it('agrees with robots-parser on generated files (groups, runs of User-agent lines, comments, stray and unknown lines)', () => {
    const next = seededRandom(20261127);
    const agents = [
      '*',
      'Quarry',
      'quarry/1.0',
      'QUARRY',
      'Quarrybot',
      'Googlebot',
      ' ',
      'Quarry (+https://q.example)',
    ];
    const patterns = [
      '/',
      '/a',
      '/a/',
      '/a/b',
      '/*.pdf$',
      '/*?x=',
      '/a*/c',
      '/b$',
      '/%E2%82%AC',
      '/€',
      '/A',
      '',
      '*/c',
      '/a#frag',
    ];
    let refused = 0;
    for (let file = 0; file < 300; file++) {
      const lines: string[] = [];
      for (let i = 0, count = 1 + Math.floor(next() * 25); i < count; i++) {
        const roll = next();
        if (roll < 0.3)
          lines.push(
            `${pick(next, ['User-agent', 'user-agent', 'USER-AGENT', ' User-Agent '])}:${pick(next, ['', ' '])}${pick(next, agents)}`,
          );
        else if (roll < 0.7)
          lines.push(`${pick(next, ['Disallow', 'Allow', 'disallow', 'ALLOW'])}: ${pick(next, patterns)}`);
        else if (roll < 0.78)
          lines.push(pick(next, ['', '   ', '# comment', '# note: not a key', 'no colon here', ': empty key']));
        else if (roll < 0.86) lines.push(`Crawl-delay: ${pick(next, ['1', 'x'])}`);
        else if (roll < 0.93)
          lines.push(pick(next, ['Sitemap: https://site.example/s.xml', 'Host: site.example', 'Noindex: /a']));
        else lines.push(`Disallow: ${pick(next, patterns)} # trailing comment`);
      }
      const contents = lines.join(pick(next, ['\n', '\r\n', '\r']));
      const urls = [
        '/',
        '/a',
        '/a/b',
        '/a/b/c',
        '/b',
        '/b/',
        '/x.pdf',
        '/x.pdfs',
        '/y?x=1',
        '/ab/c',
        '/%E2%82%AC',
        '/€',
        '/A',
        '/a%2fb',
      ].map((path) => ORIGIN + path);
      refused += expectSameAnswers(contents, urls).refused;
    }
    expect(refused).toBeGreaterThan(1000);
  });
});
