/**
 * Pages the extraction fuzz (bench:fuzz, issue 44) lost, reduced to the part that broke them
 * (fixtures/malformed/PROVENANCE.md: source page, seed, mutation). Each must still read, with its text.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import run from '../../workers/extract.worker.js';
import type { ExtractionResult } from './types.js';

function read(name: string): ExtractionResult {
  const bytes = new Uint8Array(readFileSync(new URL(`./fixtures/malformed/${name}`, import.meta.url)));
  return run({ bytes, contentTypeHeader: 'text/html; charset=utf-8', url: 'https://fixture.test/page' });
}

const CASES: Array<[string, string, string]> = [
  ['huge-named-reference.html', 'a 9,666-letter broken reference in a widget', 'meditation existed only on the edge'],
  ['script-end-tag-broken.html', 'an invalid byte inside </script> in the head', 'certified personal trainer'],
  ['header-end-tag-broken.html', 'invalid bytes inside </header>, an article about a CAPTCHA', 'transparency log'],
  ['skip-link-left-open.html', 'a skip link whose </a> was lost', 'Workforce Development connects'],
  ['late-html-start-tag.html', 'a stray <html> in the middle of a page without one', 'Mandelbrot'],
  [
    'references-split-text.html',
    'a hidden block of broken references between real ones, beside the posts in <noscript>',
    'best practices that de',
  ],
  ['start-tag-before-html.html', 'an <em> left open before <!DOCTYPE html>', 'seismic transformation'],
  ['comment-thread-split.html', 'a comment thread split in two by stray end tags', 'Copy-ish semantics'],
  ['named-body-ended-early.html', 'an article body ended early by a stray </div>', 'Dedica EC685 is compact'],
  ['reference-with-invalid-bytes.html', 'broken references with invalid bytes in a widget', 'pre-pandemic pricing'],
  ['dialog-left-open.html', 'a search dialog whose end tags were lost, around the page', 'second listing in Hong Kong'],
  [
    'share-dialog-left-open.html',
    'a share dialog left open around a page without <main>',
    'second listing in Hong Kong',
  ],
  ['title-end-tag-broken.html', 'an invalid byte inside </title>', 'true writing guru'],
  [
    'in-page-nav-left-open.html',
    'an in-page nav left open around a listing and its description',
    'find a balance between your sofa',
  ],
  [
    'streamed-placeholders-broken.html',
    "a streamed page whose placeholder's end tag broke (the next placeholders inside it)",
    'type of mutual fund or exchange-traded fund',
  ],
  [
    'streamed-placeholders-broken.html',
    "a streamed page whose placeholder's id has a broken byte before its quote",
    'hundreds of indexes you can track',
  ],
  [
    'signup-widget-left-open.html',
    "a newsletter's sign-up box left open around the post's later sections",
    'convenient way to link it up',
  ],
  [
    'filter-flyout-left-open.html',
    'a non-modal filter flyout left open around the listing and its buying guide',
    'find your perfect pair of headphones',
  ],
  [
    'category-page-cut-short.html',
    'a category page cut off in its product grid, below an intro',
    'Friant Zone Too Tasker',
  ],
  ['stray-form-around-course-page.html', 'a stray <form> around the first part of a page', 'Work in a marketing team'],
  [
    'replies-after-comment-section.html',
    'a thread whose later replies stray end tags put after its comment list',
    'Very interested and curious about the ergonomic ref counting',
  ],
  [
    'second-title-end-tag-broken.html',
    'a page whose second <title> has a broken end tag',
    'Structured data analysis involves extracting',
  ],
  [
    'news-river-in-groups-of-three.html',
    'a news river in sections of three cards, each card its <header>',
    'Hands on: AirPods Pro 3 Live Translation',
  ],
  [
    'page-builder-header-outside-main.html',
    "a page builder's <header> section around the article, which stray tags put outside <main>",
    'figure out what your ideal clients are actually searching for',
  ],
  [
    'share-bar-left-open-around-body.html',
    'a share bar whose end tags were lost before the named article body',
    'Fourth Energy Technology Development Plan',
  ],
  [
    'dialog-title-in-footer.html',
    "a footer holding a terms-of-service modal whose title is an <h1>, beside a product's short text",
    'combines soft Merino wool',
  ],
  [
    'broken-references-outweigh-listing.html',
    'a product listing without prose beside broken references of hundreds of digits',
    'Sport Recreational Helmet Vent Light',
  ],
  [
    'script-attribute-broken-by-quote.html',
    "a docs page whose Alpine x-data program a stray quote turned into the element's text",
    'Embark on a comprehensive learning path',
  ],
];

describe('malformed pages found by the fuzz', () => {
  for (const [name, what, phrase] of CASES)
    it(`reads ${what}`, () => {
      const result = read(name);
      expect(result.failureReason).toBeUndefined();
      expect(result.success).toBe(true);
      expect(result.text).toContain(phrase);
    });
});

describe('a <title> that never ends', () => {
  it('ends at the next tag: the title is the text before it', () => {
    expect(read('title-end-tag-broken.html').title).toBe('Wendi Weiner | Legal, Executive, & Board Resume Writer');
  });
});

describe('a second <title> that never ends', () => {
  it('ends at the next tag too, so the body is parsed as the body', async () => {
    const { parseDocument } = await import('./parse-document.js');
    const doc = parseDocument(
      '<html><head><title>A</title><title>B<\uFFFD/title></head><body><p>Body text</p></body></html>',
    );
    expect(doc.querySelector('p')?.textContent).toBe('Body text');
    expect(read('second-title-end-tag-broken.html').title).toBe(
      'Data Analytics Platforms: Features and Benefits - Dataversity',
    );
  });
});

describe('body content before <html>', () => {
  it('keeps the attributes of the <html> that follows, as a browser merges them', () => {
    expect(read('start-tag-before-html.html').metadata.language).toBe('en');
  });
});

describe('program source read as text', () => {
  it('tells a program from prose by its braces and punctuation', async () => {
    const { isProgramSource } = await import('./machine-text.js');
    const program = [
      'async askQuestion() { const question = this.currentQuestion.trim(); if (!question) { return }',
      "this.messages.push({ role: 'user', content: question });",
      "this.$nextTick(() => { this.$refs.input.style.height = 'auto' }) }",
    ].join(' ');
    expect(isProgramSource(program)).toBe(true);
    const prose = [
      'In this guide series (four parts), you will gain hands-on experience with Docker, starting with installing',
      'and setting up Docker Desktop on your computer; then you will run your first container, build an image and',
      'push it to a registry.',
    ].join(' ');
    expect(isProgramSource(prose)).toBe(false);
  });
});

describe('an over-long unbroken run counts for nothing in the content scorer', () => {
  it('drops a run longer than any word, not text written without spaces', async () => {
    const { nonSpaceLength, LONGEST_WORD_CHARS } = await import('./content-stats.js');
    expect(nonSpaceLength(`&${'a'.repeat(9666)};`)).toBe(0);
    expect(nonSpaceLength(`&#${'9'.repeat(200)}; 12 results`)).toBe(9);
    expect(nonSpaceLength('a'.repeat(LONGEST_WORD_CHARS))).toBe(LONGEST_WORD_CHARS);
    expect(nonSpaceLength('two words')).toBe(8);
    expect(nonSpaceLength('瞑想'.repeat(100))).toBe(200);
    expect(nonSpaceLength(`${'a'.repeat(100)}瞑想`)).toBe(102);
    // Invalid bytes decode to U+FFFD, which is no script written without spaces.
    expect(nonSpaceLength(`&${'a'.repeat(700)}\uFFFD${'a'.repeat(700)};`)).toBe(0);
  });
});
