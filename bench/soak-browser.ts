/**
 * Browser soak: `npm run soak:browser`. Renders SOAK_PAGES (default 2,000)
 * JavaScript pages (a list built by script, a fetch) from a local node:http server through the BrowserPool
 * (concurrency 2, the production recycle setting), printing the RSS of this
 * process and of all Chromium processes (from /proc) every 100 pages. At the
 * end it compares the last quartile's peak with the first quartile's, beside
 * the first 100 pages as a baseline: a leak shows as a ratio that keeps
 * growing with the number of pages, while recycling keeps it near 1.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BrowserPool } from '../services/browser/browser-pool.js';
import { OutboundClient } from '../core/http/outbound-client.js';
import { silentLogger } from '../core/logger.js';

const PAGES = Number(process.env.SOAK_PAGES ?? 2000);
const CONCURRENCY = 2;
const REPORT_EVERY = 100;
/** The config default (browser.recycleAfterPages). */
const RECYCLE_AFTER = Number(process.env.SOAK_RECYCLE ?? 100);
/** Last-quartile peak over first-quartile peak above this counts as unbounded growth. */
const BOUND_RATIO = 1.5;

interface Sample {
  pages: number;
  nodeMb: number;
  chromiumMb: number;
}

/** A page that builds its content in script, fetches data after load, and allocates a little. */
function pageHtml(n: number): string {
  return `<!doctype html><html><head><title>Soak ${n}</title></head><body><main id="app"></main><script>
    var items = []; for (var i = 0; i < 500; i++) items.push('<li>row ' + i + ' of page ${n}</li>');
    document.getElementById('app').innerHTML = '<h1>Page ${n}</h1><ul>' + items.join('') + '</ul>';
    fetch('/data/${n}').then(function (r) { return r.text(); }).then(function (t) { document.title = t; });
  </script></body></html>`;
}

function mb(bytes: number): number {
  return Math.round((bytes / 1048576) * 10) / 10;
}

/**
 * Resident memory of our Chromium: every descendant of this process (the
 * browser, its zygotes, renderers, GPU and utility processes), found by
 * walking parent pids in /proc. Other Chromiums on the machine are not ours.
 */
function chromiumRssBytes(): number {
  const parents = new Map<number, number>();
  const rss = new Map<number, number>();
  for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const status = readFileSync(`/proc/${entry}/status`, 'utf8');
      const ppid = /PPid:\s+(\d+)/.exec(status);
      const resident = /VmRSS:\s+(\d+) kB/.exec(status);
      if (ppid) parents.set(Number(entry), Number(ppid[1]));
      if (resident) rss.set(Number(entry), Number(resident[1]) * 1024);
    } catch {
      // the process ended while we looked
    }
  }
  const isOurs = (pid: number): boolean => {
    for (let p = parents.get(pid), hops = 0; p !== undefined && p > 1 && hops < 64; p = parents.get(p), hops++) {
      if (p === process.pid) return true;
    }
    return false;
  };
  let total = 0;
  for (const [pid, bytes] of rss) if (isOurs(pid)) total += bytes;
  return total;
}

function peak(samples: Sample[], pick: (s: Sample) => number): number {
  return Math.max(...samples.map(pick));
}

async function main(): Promise<void> {
  const server = createServer((request, response) => {
    const n = /^\/(?:page|data)\/(\d+)/.exec(request.url ?? '')?.[1] ?? '0';
    if (request.url?.startsWith('/data/')) {
      response.setHeader('content-type', 'text/plain');
      response.end(`data ${n}`);
      return;
    }
    response.setHeader('content-type', 'text/html; charset=utf-8');
    response.end(pageHtml(Number(n)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;

  const outbound = new OutboundClient(
    {
      userAgent: 'Quarry soak',
      timeoutMs: 10_000,
      retries: 0,
      perHostConcurrency: 8,
      maxResponseBytes: 5 * 1024 * 1024,
      maxRedirects: 5,
      proxy: null,
      respectRobots: false,
      allowPrivateNetwork: false,
      allowHosts: [`127.0.0.1:${port}`],
    },
    silentLogger(),
  );
  const pool = new BrowserPool(
    { maxConcurrentPages: CONCURRENCY, recycleAfterPages: RECYCLE_AFTER },
    outbound,
    silentLogger(),
  );
  if (!pool.available())
    throw new Error('Chromium not found: the soak needs /usr/bin/chromium (or QUARRY_CHROMIUM_PATH)');

  console.log(
    `soak: ${PAGES} JavaScript pages, concurrency ${CONCURRENCY}, recycle after ${RECYCLE_AFTER}, server ${origin}`,
  );
  const samples: Sample[] = [];
  const started = Date.now();
  let next = 0;
  let done = 0;
  let failures = 0;
  const worker = async (): Promise<void> => {
    while (next < PAGES) {
      const n = next++;
      try {
        // "load": the list is built by inline script before it; the idle modes would add 500 ms of waiting per page.
        const page = await pool.render(`${origin}/page/${n}`, { timeoutMs: 15_000, waitUntil: 'load' });
        if (!page.html.includes(`row 499 of page ${n}`)) throw new Error(`page ${n} did not render`);
      } catch (error) {
        failures++;
        console.error(`page ${n} failed: ${error instanceof Error ? error.message : String(error)}`);
      }
      done++;
      if (done % REPORT_EVERY === 0) {
        const sample = { pages: done, nodeMb: mb(process.memoryUsage().rss), chromiumMb: mb(chromiumRssBytes()) };
        samples.push(sample);
        const rate = Math.round((done / ((Date.now() - started) / 1000)) * 10) / 10;
        console.log(
          `${String(done).padStart(5)} pages  node RSS ${sample.nodeMb} MB  chromium RSS ${sample.chromiumMb} MB  ${rate} pages/s`,
        );
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const seconds = Math.round((Date.now() - started) / 100) / 10;
  await pool.close();
  await outbound.close();
  server.close();

  const quarter = Math.max(1, Math.floor(samples.length / 4));
  const first = samples.slice(0, quarter);
  const last = samples.slice(-quarter);
  const baseline = samples[0]!;
  const report = (name: string, pick: (s: Sample) => number): boolean => {
    const ratio = Math.round((peak(last, pick) / peak(first, pick)) * 100) / 100;
    console.log(
      `${name}: baseline (first ${REPORT_EVERY} pages) ${pick(baseline)} MB, first-quartile peak ${peak(first, pick)} MB, last-quartile peak ${peak(last, pick)} MB, ratio ${ratio}`,
    );
    return ratio <= BOUND_RATIO;
  };
  console.log(
    `\n${done} pages in ${seconds} s (${Math.round((done / seconds) * 10) / 10} pages/s), ${failures} failed, ${pool.stats().browserRestarts} browser relaunches`,
  );
  const nodeOk = report('node RSS', (s) => s.nodeMb);
  const chromiumOk = report('chromium RSS', (s) => s.chromiumMb);
  const bounded = nodeOk && chromiumOk && failures === 0;
  console.log(bounded ? `memory bounded: yes (ratios <= ${BOUND_RATIO})` : `memory bounded: NO (or pages failed)`);
  process.exitCode = bounded ? 0 : 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
