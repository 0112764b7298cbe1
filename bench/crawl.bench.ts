/**
 * npm run bench:crawl — a 1,000-page crawl of a local site through Quarry's Firecrawl `/v2/crawl`,
 * beside a plain loop over the same pages in the same process: fetch, linkedom and Mozilla
 * Readability, as many at once as the crawl reads (4). Prints pages/s for both and their ratio, and
 * the peak RSS of the process while the crawl ran (Quarry runs in this process, on the embedded
 * backend: the server's memory is the process's).
 *
 * The site is a documentation site: an index linking 20 sections, each linking 50 articles
 * (test/sandbox/firecrawl-site.ts's article pages), served on 127.0.0.1. The crawl reads the index,
 * the sections and the articles (1,021 pages) with robots.txt, the page cache off and markdown
 * asked for; the baseline reads the same 1,021 URLs from a list it is given (no link discovery).
 * Flags: --pages N (default 1,000 articles), --sections N (default 20).
 */
import { parseArgs } from 'node:util';
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import { startQuarry, TEST_KEY } from '../test/e2e/harness.js';
import { siteArticle } from '../test/sandbox/firecrawl-site.js';
import { startSandboxWeb } from '../test/sandbox/sandbox-web.js';

const { values } = parseArgs({
  options: { pages: { type: 'string', default: '1000' }, sections: { type: 'string', default: '20' } },
});
const PAGES = Number(values.pages);
const SECTIONS = Number(values.sections);
const CONCURRENCY = 4;
const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

async function main(): Promise<void> {
  const web = await startSandboxWeb();
  const perSection = Math.ceil(PAGES / SECTIONS);
  const articlePath = (i: number) => `/docs/article-${i}`;
  const sectionPath = (s: number) => `/docs/section-${s}`;
  const html = { contentType: 'text/html; charset=utf-8' };
  web.addPage(
    '/docs/',
    siteArticle(
      9999,
      Array.from({ length: SECTIONS }, (_, s) => sectionPath(s)),
    ),
    html,
  );
  for (let s = 0; s < SECTIONS; s++) {
    const members = Array.from({ length: perSection }, (_, k) => s * perSection + k).filter((i) => i < PAGES);
    web.addPage(sectionPath(s), siteArticle(5000 + s, members.map(articlePath)), html);
  }
  for (let i = 0; i < PAGES; i++) web.addPage(articlePath(i), siteArticle(i, []), html);
  const urls = [
    `${web.url}/docs/`,
    ...Array.from({ length: SECTIONS }, (_, s) => `${web.url}${sectionPath(s)}`),
    ...Array.from({ length: PAGES }, (_, i) => `${web.url}${articlePath(i)}`),
  ];

  const quarry = await startQuarry(web, { rateLimitPerMinute: 1_000_000 });
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }, 100);
  const auth = { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' };
  const crawlStarted = performance.now();
  const started = await fetch(`${quarry.url}/firecrawl/v2/crawl`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({
      url: `${web.url}/docs/`,
      limit: urls.length,
      maxConcurrency: CONCURRENCY,
      scrapeOptions: { formats: ['markdown'], maxAge: 0, storeInCache: false },
    }),
  });
  const { id } = (await started.json()) as { id: string };
  let status: { status: string; completed: number; total: number } = { status: 'scraping', completed: 0, total: 0 };
  while (status.status === 'scraping') {
    // The bench's own clock, not a test's wait: the poll interval bounds the measured time by 50 ms at most.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const answer = await fetch(`${quarry.url}/firecrawl/v2/crawl/${id}?limit=1`, { headers: auth });
    status = (await answer.json()) as typeof status;
  }
  const crawlSeconds = (performance.now() - crawlStarted) / 1000;
  clearInterval(sampler);
  await quarry.close();

  // The baseline: the same URLs, read and extracted by a plain loop with the same concurrency.
  const queue = [...urls];
  let baselineRead = 0;
  const baselineStarted = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let url = queue.shift(); url; url = queue.shift()) {
        const page = await (await fetch(url)).text();
        const { document } = parseHTML(page);
        if (new Readability(document as unknown as Document).parse()?.textContent) baselineRead++;
      }
    }),
  );
  const baselineSeconds = (performance.now() - baselineStarted) / 1000;
  await web.close();

  const quarryRate = status.completed / crawlSeconds;
  const baselineRate = baselineRead / baselineSeconds;
  console.log(`bench:crawl on Node ${process.version}: ${urls.length} pages (${SECTIONS} sections × ${perSection})`);
  console.log(`  status ${status.status}, ${status.completed}/${status.total} pages`);
  console.log(`  quarry /v2/crawl          ${quarryRate.toFixed(1)} pages/s (${crawlSeconds.toFixed(1)} s)`);
  console.log(`  fetch + Readability loop  ${baselineRate.toFixed(1)} pages/s (${baselineSeconds.toFixed(1)} s)`);
  console.log(`  ratio                     ${(quarryRate / baselineRate).toFixed(2)}× (goal ≥ 1.0×)`);
  console.log(`  peak RSS during the crawl ${mb(peakRss)} (goal < 600 MB, embedded backend)`);
}

await main();
