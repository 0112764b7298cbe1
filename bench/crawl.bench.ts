/**
 * npm run bench:crawl — a 1,000-page crawl of a local site through Quarry's Firecrawl `/v2/crawl`,
 * beside a plain loop over the same pages in the same run: fetch, linkedom and Mozilla Readability,
 * as many at once as the crawl reads (4). Prints pages/s for both and their ratio, and the server's
 * peak RSS. Quarry runs as its own `quarry serve` process on the embedded backend (the one harness's
 * spawnQuarry), so its memory is its own: the kernel's high-water mark (VmHWM) of the server process,
 * worker threads included, and the peak of its child processes (model workers, if any start) sampled
 * beside it. The baseline loop runs in this process.
 *
 * The site is a documentation site: an index linking 20 sections, each linking 50 articles
 * (test/sandbox/firecrawl-site.ts's article pages), served on 127.0.0.1. The crawl reads the index,
 * the sections and the articles (1,021 pages) with robots.txt, the page cache off and markdown
 * asked for; the baseline reads the same 1,021 URLs from a list it is given (no link discovery).
 * The machine may be shared: the crawl and the loop alternate for --rounds rounds (default 3), each
 * round's ratio is printed and their median is the figure.
 * Beside pages/s, the CPU time per page of each side (the server's threads and child processes; the
 * loop's process, which also serves the site), which a loaded machine moves less than wall time.
 * The server's CPU time for a crawl runs until its page index has written what the crawl read (the bench waits for
 * it before the loop's round), and the pages the index wrote or dropped and the worker-pool tasks per page are printed.
 * Flags: --pages N (default 1,000 articles), --sections N (default 20), --rounds N, --no-page-index
 * (the server keeps no local page index: what indexing every read page costs), --cpu-prof DIR (the
 * server writes a V8 CPU profile there on exit).
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import { TEST_KEY } from '../test/e2e/harness.js';
import { spawnQuarry } from '../test/e2e/quarry-process.js';
import { siteArticle } from '../test/sandbox/firecrawl-site.js';
import { startSandboxWeb } from '../test/sandbox/sandbox-web.js';

const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: '1000' },
    sections: { type: 'string', default: '20' },
    rounds: { type: 'string', default: '3' },
    'no-page-index': { type: 'boolean', default: false },
    'cpu-prof': { type: 'string' },
  },
});
const PAGES = Number(values.pages);
const SECTIONS = Number(values.sections);
const ROUNDS = Number(values.rounds);
const CONCURRENCY = 4;

interface CrawlStatus {
  status: string;
  completed: number;
  total: number;
}

/** The parts of the server's runtime figures (GET /api/v1/enhanced/performance) the bench reads. */
interface RuntimeFigures {
  extraction_pool: { completed: number };
  page_indexer: { indexed: number; dropped: number; failed: number; queued: number };
}
/** How long the bench waits for the page index to write what a crawl read before it reads the server's CPU time. */
const INDEX_WAIT_MS = 120_000;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
/** Linux's USER_HZ, what /proc/<pid>/stat counts CPU time in. */
const CLOCK_TICKS = 100;
const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

/** A field of /proc/<pid>/status in bytes (VmRSS, VmHWM), 0 once the process is gone. */
function statusBytes(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** CPU seconds a process has used so far, all its threads (utime + stime of /proc/<pid>/stat), 0 once it is gone. */
function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces), from field 3: utime and stime are fields 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}

/** The process's descendants (model worker processes), found through each thread's children list. */
function descendants(pid: number): number[] {
  const found: number[] = [];
  let tasks: string[] = [];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return found;
  }
  for (const task of tasks) {
    let children = '';
    try {
      children = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8');
    } catch {
      continue;
    }
    for (const child of children.split(' ').filter(Boolean).map(Number)) found.push(child, ...descendants(child));
  }
  return found;
}

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

  const cpuProf = values['cpu-prof'];
  const quarry = await spawnQuarry({
    web,
    config: { rateLimitPerMinute: 1_000_000, ...(values['no-page-index'] ? { vectorIndex: { enabled: false } } : {}) },
    ...(cpuProf ? { env: { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${cpuProf}` } } : {}),
  });
  const startRss = statusBytes(quarry.pid, 'VmRSS');
  let childrenPeak = 0;
  const sampler = setInterval(() => {
    const sum = descendants(quarry.pid).reduce((total, pid) => total + statusBytes(pid, 'VmRSS'), 0);
    childrenPeak = Math.max(childrenPeak, sum);
  }, 100);
  const auth = { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' };

  const serverCpu = () =>
    cpuSeconds(quarry.pid) + descendants(quarry.pid).reduce((total, pid) => total + cpuSeconds(pid), 0);
  const runtime = async (): Promise<RuntimeFigures> =>
    (
      (await (await fetch(`${quarry.url}/api/v1/enhanced/performance`, { headers: auth })).json()) as {
        runtime: RuntimeFigures;
      }
    ).runtime;
  /**
   * Waits until the page index has written (or dropped) every page it was given, so the work a crawl leaves
   * behind counts in the crawl's CPU time and does not run during the loop's round.
   */
  async function indexSettled(): Promise<RuntimeFigures> {
    const stopAt = performance.now() + INDEX_WAIT_MS;
    for (;;) {
      const figures = await runtime();
      if (figures.page_indexer.queued === 0 || performance.now() > stopAt) return figures;
      // A bench's poll, not a test's wait: it only bounds how soon the next reading is taken.
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /**
   * One crawl of the site through /v2/crawl, timed from the request to the status that says it is done; its CPU time
   * runs until the page index has written what the crawl read.
   */
  async function crawlOnce(): Promise<{
    rate: number;
    seconds: number;
    cpuMsPerPage: number;
    status: CrawlStatus;
    indexSeconds: number;
    poolTasksPerPage: number;
    index: RuntimeFigures['page_indexer'];
  }> {
    const figuresBefore = await runtime();
    const cpuBefore = serverCpu();
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
    let status: CrawlStatus = { status: 'scraping', completed: 0, total: 0 };
    while (status.status === 'scraping') {
      // The bench's own clock, not a test's wait: the poll interval bounds the measured time by 50 ms at most.
      await new Promise((resolve) => setTimeout(resolve, 50));
      const answer = await fetch(`${quarry.url}/firecrawl/v2/crawl/${id}?limit=1`, { headers: auth });
      status = (await answer.json()) as CrawlStatus;
    }
    const seconds = (performance.now() - crawlStarted) / 1000;
    const figures = await indexSettled();
    const indexSeconds = (performance.now() - crawlStarted) / 1000 - seconds;
    const cpuMsPerPage = ((serverCpu() - cpuBefore) * 1000) / status.completed;
    const poolTasksPerPage =
      (figures.extraction_pool.completed - figuresBefore.extraction_pool.completed) / status.completed;
    const index = {
      indexed: figures.page_indexer.indexed - figuresBefore.page_indexer.indexed,
      dropped: figures.page_indexer.dropped - figuresBefore.page_indexer.dropped,
      failed: figures.page_indexer.failed - figuresBefore.page_indexer.failed,
      queued: figures.page_indexer.queued,
    };
    return { rate: status.completed / seconds, seconds, cpuMsPerPage, status, indexSeconds, poolTasksPerPage, index };
  }

  /** The baseline: the same URLs, read and extracted by a plain loop with the same concurrency. */
  async function baselineOnce(): Promise<{ rate: number; seconds: number; cpuMsPerPage: number }> {
    const queue = [...urls];
    let read = 0;
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let url = queue.shift(); url; url = queue.shift()) {
          const page = await (await fetch(url)).text();
          const { document } = parseHTML(page);
          if (new Readability(document as unknown as Document).parse()?.textContent) read++;
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    return { rate: read / seconds, seconds, cpuMsPerPage: (cpu.user + cpu.system) / 1000 / read };
  }

  // Rounds alternate the two, so a change in the machine's load (shared with other work) meets both sides.
  const rounds: { crawl: Awaited<ReturnType<typeof crawlOnce>>; baseline: Awaited<ReturnType<typeof baselineOnce>> }[] =
    [];
  let firstCrawlPeak = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const crawl = await crawlOnce();
    if (round === 0) firstCrawlPeak = statusBytes(quarry.pid, 'VmHWM');
    const baseline = await baselineOnce();
    rounds.push({ crawl, baseline });
  }
  clearInterval(sampler);
  const serverPeak = statusBytes(quarry.pid, 'VmHWM');
  // SIGINT lets the server shut down, so a CPU profile asked for is written.
  quarry.kill(cpuProf ? 'SIGINT' : 'SIGKILL');
  await quarry.exited;
  rmSync(quarry.dataDir, { recursive: true, force: true });
  await web.close();

  const ratios = rounds.map(({ crawl, baseline }) => crawl.rate / baseline.rate);
  console.log(
    `bench:crawl on Node ${process.version}: ${urls.length} pages (${SECTIONS} sections × ${perSection}), ` +
      `page index ${values['no-page-index'] ? 'off' : 'on'}`,
  );
  rounds.forEach(({ crawl, baseline }, i) => {
    console.log(
      `  round ${i + 1}: quarry /v2/crawl ${crawl.rate.toFixed(1)} pages/s (${crawl.seconds.toFixed(1)} s, ` +
        `${crawl.status.status} ${crawl.status.completed}/${crawl.status.total}, ` +
        `${crawl.cpuMsPerPage.toFixed(1)} CPU ms/page), fetch + Readability loop ${baseline.rate.toFixed(1)} ` +
        `pages/s (${baseline.seconds.toFixed(1)} s, ${baseline.cpuMsPerPage.toFixed(1)} CPU ms/page): ` +
        `${ratios[i]!.toFixed(2)}×`,
    );
    const { index } = crawl;
    console.log(
      `           page index: ${index.indexed} pages written, ${index.dropped} dropped, ${index.failed} failed` +
        `${index.queued ? `, ${index.queued} still queued` : ''} (${crawl.indexSeconds.toFixed(1)} s after the crawl); ` +
        `${crawl.poolTasksPerPage.toFixed(2)} worker-pool tasks per page`,
    );
  });
  console.log(`  median ratio              ${median(ratios).toFixed(2)}× (goal ≥ 1.0×)`);
  const cpuRatios = rounds.map(({ crawl, baseline }) => baseline.cpuMsPerPage / crawl.cpuMsPerPage);
  console.log(`  median CPU ratio          ${median(cpuRatios).toFixed(2)}× (loop's CPU per page / the server's)`);
  console.log(
    `  server peak RSS (VmHWM)   ${mb(firstCrawlPeak)} through the first crawl (goal < 600 MB, embedded backend), ` +
      `${mb(serverPeak)} through all ${ROUNDS}; ${mb(startRss)} idle`,
  );
  console.log(`  its child processes' peak ${mb(childrenPeak)}`);
}

await main();
