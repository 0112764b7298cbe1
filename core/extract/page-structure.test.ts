import { describe, expect, it } from 'vitest';
import { wordScore } from '../../bench/extract/word-f1.js';
import { loadPage } from '../../test/fixtures/pages/load-page.js';
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

  it('reads an article React streamed into a hidden <div id="S:0">', () => {
    expect(run('nextjs-streamed-hidden').f1).toBeGreaterThan(0.9);
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

  it('reports a JavaScript shell whose only text is the footer as empty', () => {
    const score = run('aliexpress-shell');
    expect(score.success).toBe(false);
    expect(score.text).toBe('');
  });

  it('leaves customer reviews out of a product page', () => {
    const score = run('product-with-reviews');
    expect(score.precision).toBeGreaterThan(0.85);
    expect(score.text).not.toContain('Fantastic bag that just falls short');
  });

  it('never takes a consent dialog for the content, however long it is', () => {
    const score = run('forum-consent-dialog');
    expect(score.text).not.toMatch(/Information about your activity on this service/);
    expect(score.f1).toBeGreaterThan(0.6);
  });
});
