/**
 * The official Exa client (exa-js, unchanged) pointed at a running Quarry:
 * `new Exa(key, '<quarry>/api/v1/exa')` posts to /search, /contents and
 * /findSimilar with `x-api-key`. The engine and pages are the sandbox web's
 * three "meaning" pages (a first-aid page and two decoys sharing its words).
 */
import { Exa, ExaError } from 'exa-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEANING_PAGES, renderMeaningPage } from '../sandbox/meaning-pages.js';
import { startSandboxWeb, type SandboxWeb } from '../sandbox/sandbox-web.js';
import { startQuarry, TEST_KEY, type RunningQuarry } from './harness.js';

let web: SandboxWeb;
let quarry: RunningQuarry;
let exa: Exa;

const [CPR, BRIDGE, BREATHING] = MEANING_PAGES;
const PARAPHRASE = 'help for a person whose heart stopped';

beforeAll(async () => {
  web = await startSandboxWeb();
  for (const page of MEANING_PAGES) web.addPage(page.path, renderMeaningPage(page));
  const items = [BREATHING!, BRIDGE!, CPR!].map((p) => ({
    link: `${web.url}${p.path}`,
    name: p.title,
    summary: p.paragraphs[0],
  }));
  web.addPage('/api/find', JSON.stringify({ items }), { contentType: 'application/json' });
  quarry = await startQuarry(web, {
    customEngines: [
      {
        type: 'json',
        id: 'sandbox_find',
        name: 'Sandbox search',
        urlTemplate: `${web.url}/api/find?q={query}`,
        results: 'items',
        fields: { url: 'link', title: 'name', snippet: 'summary' },
      },
    ],
    search: { defaultEngines: ['sandbox_find'] },
  });
  exa = new Exa(TEST_KEY, `${quarry.url}/api/v1/exa`);
}, 60_000);

afterAll(async () => {
  await quarry?.close();
  await web?.close();
});

const cprUrl = () => `${web.url}${CPR!.path}`;

describe('the official exa-js client against Quarry', () => {
  it('search without contents: metadata only, the page that means the query first', async () => {
    const response = await exa.search(PARAPHRASE, { numResults: 3, type: 'keyword', contents: false });
    expect(response.requestId).toMatch(/^[0-9a-f]{32}$/);
    expect(response.resolvedSearchType).toBe('keyword');
    expect(response.results).toHaveLength(3);
    const top = response.results[0]!;
    expect(top.url).toBe(cprUrl());
    expect(top.id).toBe(top.url);
    expect(top.title).toBe(CPR!.title);
    expect(top.author).toBe(CPR!.author);
    expect(Date.parse(top.publishedDate!)).toBe(Date.parse(CPR!.published));
    expect(top.score).toBeGreaterThan(response.results[2]!.score!);
    expect('text' in top).toBe(false);
  });

  it("search with the client's default contents: text cut at maxCharacters; domain filters apply", async () => {
    const response = await exa.search(PARAPHRASE, {
      numResults: 2,
      includeDomains: ['127.0.0.1'],
      someFutureOption: 'x',
    } as never);
    expect(response.results).toHaveLength(2);
    expect((response.results[0] as { text?: string }).text).toContain('chest compressions');
    const excluded = await exa.search(PARAPHRASE, { excludeDomains: ['127.0.0.1'], contents: false });
    expect(excluded.results).toEqual([]);
  });

  it('searchAndContents: text, highlights with scores, and an extractive summary', async () => {
    const response = await exa.searchAndContents(PARAPHRASE, {
      numResults: 1,
      text: { maxCharacters: 120 },
      highlights: { highlightsPerUrl: 2, numSentences: 1 },
      summary: true,
    });
    const top = response.results[0]!;
    expect(top.url).toBe(cprUrl());
    expect(top.text.length).toBeLessThanOrEqual(120);
    expect(top.highlights).toHaveLength(2);
    expect(top.highlightScores).toHaveLength(2);
    for (const highlight of top.highlights) expect(CPR!.paragraphs.join(' ')).toContain(highlight.trim());
    expect(top.highlightScores![0]).toBeGreaterThanOrEqual(top.highlightScores![1]!);
    expect(top.summary.length).toBeGreaterThan(20);
  });

  it('getContents: one page read, one failing page reported in statuses', async () => {
    const missing = `${web.url}/no-such-page`;
    // The client's Status type has no error field; Exa's answers (and Quarry's) carry one.
    const response = (await exa.getContents([cprUrl(), missing], { text: true })) as unknown as {
      results: Array<{ url: string; text: string }>;
      statuses: Array<{ id: string; status: string; error?: { tag: string; httpStatusCode: number | null } }>;
    };
    expect(response.results.map((r: { url: string }) => r.url)).toEqual([cprUrl()]);
    expect(response.results[0]!.text).toContain('chest compressions');
    expect(response.statuses).toContainEqual({ id: cprUrl(), status: 'success', source: 'crawled' });
    const failed = response.statuses.find((s: { id: string }) => s.id === missing);
    expect(failed?.status).toBe('error');
    expect(failed?.error?.tag).toBe('CRAWL_NOT_FOUND');
    expect(failed?.error?.httpStatusCode).toBe(404);
  });

  it('findSimilar: pages like the source, the source itself left out', async () => {
    const response = await exa.findSimilar(cprUrl(), { numResults: 2 });
    expect(response.results.length).toBeGreaterThan(0);
    expect(response.results.map((r: { url: string }) => r.url)).not.toContain(cprUrl());
    for (const result of response.results) expect(result.id).toBe(result.url);
  });

  it('bad input: an ExaError whose message names the field, with the HTTP status', async () => {
    const failure = await exa.search(PARAPHRASE, { numResults: 500, contents: false }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ExaError);
    expect((failure as ExaError).statusCode).toBe(400);
    expect((failure as ExaError).message).toMatch(/numResults/);
  });
});
