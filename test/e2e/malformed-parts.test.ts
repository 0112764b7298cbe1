/**
 * A malformed part of a page loses that part, not the page (issue 44): a page
 * whose JSON-LD holds &#99999999; once came back from enhanced scrape and agent
 * extract alike as extraction_success false with error_code BLOCKED. Served by
 * the local sandbox web; the fixture is hand-made (test/fixtures/malformed).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxWeb, type SandboxWeb } from '../sandbox/sandbox-web.js';
import { startQuarry, type RunningQuarry } from './harness.js';

const PAGE = readFileSync(new URL('../fixtures/malformed/json-ld-huge-code-point.html', import.meta.url), 'utf8');
const PROSE = /Feed it once a day at room temperature/;

let web: SandboxWeb;
let quarry: RunningQuarry;
let url: string;

beforeAll(async () => {
  web = await startSandboxWeb();
  url = web.addPage('/starter/feeding', PAGE);
  quarry = await startQuarry(web, { outbound: { allowHosts: [`127.0.0.1:${web.port}`] } });
}, 60_000);

afterAll(async () => {
  await quarry?.close();
  await web?.close();
});

describe('a page whose JSON-LD holds &#99999999;', () => {
  it('extracts through enhanced scrape, with its metadata', async () => {
    const res = await quarry.post('/api/v1/enhanced/scrape', {
      urls: [url],
      cache_mode: 'bypass',
      extract_metadata: true,
    });
    expect(res.status).toBe(200);
    const [page] = res.body.scraped_content;
    expect(page).toMatchObject({ extraction_success: true, error_code: null, failure_reason: null });
    expect(page.text).toMatch(PROSE);
    // The out-of-range reference reads as U+FFFD, as a browser reads it.
    expect(page.metadata).toMatchObject({
      author: 'Ada \uFFFD Baker',
      published_date: expect.stringMatching(/^2024-03-01/),
    });
    expect(res.body.metadata.failed_urls).toEqual([]);
  });

  it('extracts through agent extract', async () => {
    const res = await quarry.post('/api/v1/agent/extract', { urls: [url] });
    expect(res.status).toBe(200);
    expect(res.body.failed_results).toEqual([]);
    expect(res.body.results[0].raw_content).toMatch(PROSE);
  });
});
