import { describe, expect, it } from 'vitest';
import { fixturePages } from '../../../test/sandbox/fixture-pages.js';
import { blocksText } from '../../../services/page-analysis/blocks-text.js';
import { pageBlocks } from '../../../services/page-analysis/text-blocks.js';
import { bm25Blocks } from './bm25.js';
import { blocksToMarkdown } from './markdown.js';
import { pruneBlocks, pruningScore } from './pruning.js';

const blocksOf = (name: string) => pageBlocks(fixturePages().find((p) => p.name === name)!.html);

describe('pruning filter on real pages', () => {
  it.each([
    [
      'article-audi-etron-sportback',
      'Audi has revealed the second production model',
      ['Editorial Standards', 'Search SlashGear', 'Story Timeline'],
    ],
    [
      'blog-llm-tuning-math',
      'Large language models (LLMs) are powerful tools',
      ['Recent posts', 'Copyright ©', 'Skip to main content'],
    ],
    [
      'article-experience-new-ceo',
      'Experience is thrilled to have Junior Gaspard',
      ['Generate new revenue streams with mobile commerce', '© 2019 Experience'],
    ],
    ['article-space-review-big-rocket', 'Earlier this month, NASA announced', ['Subscribe to our weekly newsletter']],
  ])('%s: keeps the article and drops menus, footers and link lists', (name, kept, dropped) => {
    const blocks = blocksOf(name);
    const text = blocksText(pruneBlocks(blocks));
    expect(text).toContain(kept);
    for (const boilerplate of dropped) expect(text, boilerplate).not.toContain(boilerplate);
    expect(pruneBlocks(blocks).length).toBeLessThan(blocks.length);
  });

  it('scores link lists low and prose high, and honours threshold and min_words', () => {
    const blocks = blocksOf('wikipedia-microsoft');
    const prose = blocks.find((b) => b.text.startsWith('Microsoft Corporation is an American multinational'))!;
    expect(pruningScore(prose).score).toBeGreaterThan(0.6); // many inline links, still well above 0.5
    const navLinks = blocks.filter((b) => b.linkChars === b.textChars && b.words <= 3);
    expect(navLinks.length).toBeGreaterThan(50);
    for (const b of navLinks.slice(0, 50)) expect(pruningScore(b).score, b.text).toBeLessThan(0.5);
    expect(pruneBlocks(blocks, { threshold: 0.95 }).length).toBeLessThan(pruneBlocks(blocks).length);
    expect(pruneBlocks(blocks, { minWords: 30 }).every((b) => b.words >= 30)).toBe(true);
  });
  it("reads page furniture with the extractor's detector: the site header, a share bar and a newsletter box go, the article's own header stays", () => {
    const blocks = pageBlocks(
      '<body><header><p>Example News, all the news</p></header><main><article><header><h1>Council approves ' +
        'the new bridge</h1></header>' +
        '<p>The city council approved the new bridge on Tuesday after a long debate about its cost and its route.</p>' +
        '<div class="share-buttons"><p>Share this story</p></div></article>' +
        '<div class="newsletter-signup"><p>Get our newsletter every morning</p></div></main></body>',
    );
    const furniture = Object.fromEntries(blocks.map((b) => [b.text, b.furniture]));
    expect(furniture).toMatchObject({
      'Example News, all the news': true,
      'Council approves the new bridge': false,
      'The city council approved the new bridge on Tuesday after a long debate about its cost and its route.': false,
      'Share this story': true,
      'Get our newsletter every morning': true,
    });
    expect(blocksText(pruneBlocks(blocks))).toBe(
      'Council approves the new bridge\n\nThe city council approved the new bridge on Tuesday after a long ' +
        'debate about its cost and its route.',
    );
  });
});

describe('bm25 filter', () => {
  it('keeps the blocks of a real page that answer the query, with their headings', async () => {
    const blocks = pruneBlocks(blocksOf('article-audi-etron-sportback'));
    const { kept } = await bm25Blocks('range charging kW', blocks);
    const text = blocksText(kept);
    expect(text).toContain('150 kW DC fast charging');
    expect(text).toContain('Range and Charging');
    expect(text).not.toContain('Singleframe grille');
    expect((await bm25Blocks('range charging kW', blocks, 50)).kept).toEqual([]);
  });
});

describe('markdown of blocks', () => {
  it('keeps headings, list items, code and quotes in markdown form', async () => {
    const md = await blocksToMarkdown(
      pageBlocks(
        '<h2>Steps</h2><ul><li>Mix</li><li>Bake</li></ul><pre>let x = 1;\n  x++;</pre><blockquote>Good ' +
          'bread</blockquote><p>Done.</p>',
      ),
    );
    expect(md).toBe('## Steps\n\n- Mix\n- Bake\n\n```\nlet x = 1;\n  x++;\n```\n\n> Good bread\n\nDone.');
  });

  it('writes table rows as a GFM table: header row, delimiter row, escaped cells, widened to the widest row', async () => {
    const md = await blocksToMarkdown(
      pageBlocks(
        '<p>Prices</p><table><tr><th>Loaf</th><th>Price</th></tr><tr><td>Rye ' +
          '*dark*</td><td>4</td></tr><tr><td>Spelt</td><td>5</td><td>new</td></tr></table><p>Done.</p>',
      ),
    );
    expect(md).toBe(
      'Prices\n\n| Loaf | Price |  |\n| --- | --- | --- |\n| Rye \\*dark\\* | 4 |\n| Spelt | 5 | new |\n\nDone.',
    );
  });

  it('renders the pruned blog post with its headings and list', async () => {
    const md = await blocksToMarkdown(pruneBlocks(blocksOf('blog-llm-tuning-math')));
    expect(md).toMatch(/^# Does Model and Inference Parameter Matter/m);
    expect(md).toMatch(/^## Experiment Setup/m);
    expect(md).toMatch(/^- temperature: The parameter that controls/m);
  });
});
