import { describe, expect, it } from 'vitest';
import { fixturePages } from '../../../test/sandbox/fixture-pages.js';
import { KnowledgeState } from './adaptive.js';
import { collectLinks } from '../../../services/page-analysis/anchor-links.js';
import { pageBlocks } from '../../../services/page-analysis/text-blocks.js';
import { analyseLinks } from './link-analysis.js';
import { contentTerms } from '../../../services/ranking/tokens.js';

const html = (name: string) => fixturePages().find((p) => p.name === name)!.html;

describe('link analysis on a real page', () => {
  it('lists every link of the Wikipedia page once, internal or external, with nofollow', () => {
    const { links, skipped } = collectLinks(html('wikipedia-microsoft'), 'https://en.wikipedia.org/wiki/Microsoft');
    expect(links.length).toBeGreaterThan(500);
    expect(new Set(links.map((l) => l.url)).size).toBe(links.length);
    const gates = links.find((l) => l.url === 'https://en.wikipedia.org/wiki/Bill_Gates')!;
    expect(gates).toMatchObject({ type: 'internal', text: 'Bill Gates', nofollow: false });
    expect(gates.occurrences).toBeGreaterThan(1);
    const external = links.filter((l) => l.type === 'external');
    expect(external.length).toBeGreaterThan(50);
    expect(external.some((l) => l.nofollow && l.rel.includes('nofollow'))).toBe(true);
    expect(skipped).toBeGreaterThan(0); // in-page #anchors
  });

  it('ranks links by relevance to the query (lexical, no model)', async () => {
    const analysis = await analyseLinks(
      collectLinks(html('wikipedia-microsoft'), 'https://en.wikipedia.org/wiki/Microsoft'),
      'Xbox video game consoles',
      null,
    );
    expect(analysis.total).toBe(analysis.internal + analysis.external);
    expect(analysis.links[0]!.text + analysis.links[0]!.url).toMatch(/xbox|video game|console/i);
    expect(analysis.links.slice(0, 10).some((l) => /xbox/i.test(l.text))).toBe(true);
    const relevances = analysis.links.map((l) => l.relevance);
    expect([...relevances].sort((a, b) => b - a)).toEqual(relevances);
  });
});

describe('information gain of adaptive crawling', () => {
  it('is high for a new relevant page, low for the same content again, zero for an off-topic page', () => {
    const query = new Set(contentTerms('Audi Sportback quattro'));
    const state = new KnowledgeState();
    const blocks = (name: string) => pageBlocks(html(name));
    const first = state.absorb(blocks('article-audi-etron-sportback'), query);
    expect(first.gain).toBe(1);
    expect(first.relevant).toBeGreaterThan(3);
    expect(state.absorb(blocks('article-audi-etron-sportback'), query).gain).toBe(0);
    expect(state.absorb(blocks('article-experience-new-ceo'), query).gain).toBe(0);
    expect(state.collected).toContain('Quattro is standard');
  });
});
