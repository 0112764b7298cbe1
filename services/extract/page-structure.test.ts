import { describe, expect, it } from 'vitest';
import { wordScore } from '../../bench/extract/word-f1.js';
import { loadPage, zyteTruth } from '../../test/fixtures/pages/load-page.js';
import { extract } from './extract.js';

interface WcxbTruth {
  file_id: string;
  url: string;
  main_content: string;
}

const TRUTH = JSON.parse(loadPage('wcxb/truth.json')) as Record<string, WcxbTruth>;

function run(name: string): { f1: number; precision: number; recall: number; success: boolean; text: string } {
  const truth = TRUTH[name];
  if (!truth) throw new Error(`no ground truth for ${name}`);
  const result = extract(loadPage(`wcxb/${name}.html.gz`), truth.url);
  return { ...wordScore(truth.main_content, result.text), success: result.success, text: result.text };
}

describe('extract on real pages whose markup hides or misplaces the content (WCXB)', () => {
  it('reads a Discourse thread served inside <noscript>, every post of it', () => {
    const score = run('discourse-forum-noscript');
    expect(score.success).toBe(true);
    expect(score.f1).toBeGreaterThan(0.9);
  });

  it('takes the whole thread when its first post holds most of the text', () => {
    const score = run('discourse-thread-long-first-post');
    expect(score.recall).toBeGreaterThan(0.8);
    expect(score.text).toContain('Subject: Ongoing Issue with YouTube Auto-Dubbing');
  });

  it('keeps the replies of a forum thread marked up as comments', () => {
    const score = run('forum-replies-named-comments');
    expect(score.recall).toBeGreaterThan(0.8);
    expect(score.text).toContain('the entire team had to roll off due to burnout');
  });

  it('reads an article React streamed into a hidden <div id="S:0">', () => {
    expect(run('nextjs-streamed-hidden').f1).toBeGreaterThan(0.9);
  });

  it('puts every piece React streamed after the footer back in place of its "Loading..." placeholder', () => {
    const score = run('react-streamed-placeholders');
    expect(score.f1).toBeGreaterThan(0.9);
    expect(score.text).not.toContain('Loading paragraph');
  });

  it('keeps every reply of a comment thread whose nested replies are named like comments', () => {
    expect(run('nested-comment-threads').f1).toBeGreaterThan(0.9);
  });

  it('drops the UUIDs a shop hides between the letters of "Sponsored", which otherwise outweigh the item', () => {
    const score = run('sponsored-uuid-spans');
    expect(score.text).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/);
    expect(score.recall).toBeGreaterThan(0.9);
  });

  it('leaves out the hidden "why am I seeing this ad" dialog each sponsored card carries', () => {
    expect(run('sponsored-uuid-spans').text).not.toContain('We use a variety of relevance factors');
  });

  it('reads a page rendered once per breakpoint (Framer) as one copy of the article', () => {
    const score = run('responsive-copies');
    expect(score.f1).toBeGreaterThan(0.9);
  });

  it('reads an article a sibling repeats with its title and table of contents as one copy', () => {
    const score = run('near-copy-article');
    expect(score.precision).toBeGreaterThan(0.9);
    expect(score.recall).toBeGreaterThan(0.9);
  });

  it('leaves out the copy Webflow hides with w-condition-invisible', () => {
    expect(run('webflow-conditional-copy').f1).toBeGreaterThan(0.9);
  });

  it('keeps the replies of a thread whose URL says nothing but whose page is named a thread view', () => {
    const score = run('thread-page-named');
    expect(score.recall).toBeGreaterThan(0.7);
    expect(score.text).toContain('Well this its like an old clasic method');
  });

  it('reads every language tab of a quickstart, not only the one shown first', () => {
    const score = run('docs-language-tabs');
    expect(score.recall).toBeGreaterThan(0.85);
    expect(score.text).toContain('npm install');
  });

  it('weighs text a page shows but hides from screen readers (aria-hidden), as a category page prints its cards', () => {
    const score = run('aria-hidden-visible-cards');
    expect(score.recall).toBeGreaterThan(0.8);
    expect(score.f1).toBeGreaterThan(0.8);
  });

  it('keeps the <header> of each card in a news river: it holds the headline and the teaser', () => {
    const score = run('news-river-card-headers');
    expect(score.success).toBe(true);
    expect(score.recall).toBeGreaterThan(0.6);
    expect(score.text).toContain('AirPods Max vs. Sonos Ace: premium personal audio, compared');
  });

  it('keeps a news story, not the hundreds of comments under it', () => {
    const score = run('story-under-long-discussion');
    expect(score.f1).toBeGreaterThan(0.85);
    expect(score.text).not.toContain('Electronics engineer here');
  });

  it('repairs a <style> before <html> and an article after a stray </html>', () => {
    expect(run('style-before-html').f1).toBeGreaterThan(0.9);
    expect(run('content-after-html').f1).toBeGreaterThan(0.9);
  });

  it('reads past a stray <![CDATA[ at the top of <body>', () => {
    expect(run('xenforo-cdata').recall).toBeGreaterThan(0.95);
  });

  it('takes the list on a listing page, not its one blurb of prose', () => {
    const score = run('job-listing');
    expect(score.recall).toBeGreaterThan(0.85);
    expect(score.f1).toBeGreaterThan(0.85);
  });

  it('keeps every card of a news list whose titles and teasers are links', () => {
    const score = run('news-list-cards');
    expect(score.success).toBe(true);
    expect(score.recall).toBeGreaterThan(0.8);
    expect(score.text).toContain('Elevating the All-Inclusive Model');
  });

  it('reports a JavaScript shell whose only text is the footer as empty', () => {
    const score = run('aliexpress-shell');
    expect(score.success).toBe(false);
    expect(score.text).toBe('');
  });

  it('leaves customer reviews out of a product page', () => {
    const score = run('product-with-reviews');
    expect(score.precision).toBeGreaterThan(0.8);
    expect(score.text).not.toContain('Fantastic bag that just falls short');
  });

  it('never takes the navigation for the content, even a mega-menu longer than the product', () => {
    const score = run('product-under-mega-menu');
    expect(score.text).not.toContain('Semi-hollowbody Guitars');
    expect(score.f1).toBeGreaterThan(0.85);
  });

  it('never takes a consent dialog for the content, however long it is', () => {
    const score = run('forum-consent-dialog');
    expect(score.text).not.toMatch(/Information about your activity on this service/);
    expect(score.f1).toBeGreaterThan(0.6);
  });

  it('keeps body text that a page builder (Elementor) wraps in widgets', () => {
    expect(run('elementor-article').f1).toBeGreaterThan(0.9);
  });
});

describe('extract on a Zyte benchmark article with a photo gallery', () => {
  it('prints a caption repeated once per gallery view only once', () => {
    const truth = zyteTruth('zyte-chron-car-sales');
    const result = extract(loadPage('zyte-chron-car-sales.html.gz'), truth.url);
    const caption = 'a long row of unsold E-Pace sports-utility vehicles';
    expect(result.text.split(caption).length - 1).toBe(1);
    expect(result.text).toContain('New vehicle sales in the Houston area plunged 10 percent last month');
  });
});

describe('extract on stories followed by a river of other stories', () => {
  it('leaves out the teasers of other stories that hold as much prose as the article (Digg)', () => {
    const truth = zyteTruth('zyte-digg-stadia-reviews');
    const result = extract(loadPage('zyte-digg-stadia-reviews.html.gz'), truth.url);
    expect(wordScore(truth.articleBody, result.text).f1).toBeGreaterThan(0.95);
    expect(result.text).toContain('You might be surprised.');
    expect(result.text).not.toContain('herding reindeer');
  });

  it('leaves out the related articles after a blog post named as an article (Shopify)', () => {
    const score = run('article-before-related-river');
    expect(score.f1).toBeGreaterThan(0.95);
  });

  it("keeps a listing's items after its intro: an intro the site does not mark as an article", () => {
    const score = run('listing-intro-before-items');
    expect(score.f1).toBeGreaterThan(0.95);
    expect(score.text).toContain('Novice 2 is designed to fit comfortably');
  });
});
