/**
 * npm run bench:url-pattern — why discovery's `pattern` filter keeps its own matcher
 * (services/discover/url-pattern.ts) instead of the platform's URLPattern (Node 24 and later).
 *
 * A `pattern` is caller input matched against every discovered URL on the event loop, so what
 * matters is the worst case, not the usual one. Both matchers run here in the same process:
 *  1. ordinary patterns over ordinary URLs: URLs matched per second, ours beside URLPattern's, as a ratio;
 *  2. a hostile pattern (`/*a*a*a*a*a*a*a*a*b`, legal in both languages) over paths of growing length:
 *     milliseconds per URL. URLPattern compiles to a backtracking regular expression, so it runs in a
 *     worker thread that is stopped after BENCH_HOSTILE_LIMIT_MS (default 5,000) per URL.
 * Needs no dataset. Exits 0 with a message when the Node running it has no URLPattern (Node 22).
 */
import { Worker } from 'node:worker_threads';
import { compileUrlPattern } from '../services/discover/url-pattern.js';

const HOSTILE = `/${'*a'.repeat(8)}b`;
const HOSTILE_LIMIT_MS = Number(process.env.BENCH_HOSTILE_LIMIT_MS ?? 5000);

/** Patterns written the same way in both languages (path globs without braces), with URLs of a docs site. */
const ORDINARY_PATTERNS = ['/blog/*', '/docs/*/install', '/api/v1/*', '/*/2024/*', '/products/*/reviews'];
const ORDINARY_URLS = Array.from({ length: 2000 }, (_, i) => {
  const sections = ['blog', 'docs', 'api/v1', 'news/2024', 'products'];
  return new URL(`https://example.test/${sections[i % sections.length]}/item-${i}/install?page=${i % 7}`);
});

declare const URLPattern: (new (init: { pathname: string }) => { test(input: string): boolean }) | undefined;

function urlsPerSecond(test: (url: URL) => boolean): number {
  const rounds = 20;
  const started = performance.now();
  let matched = 0;
  for (let round = 0; round < rounds; round++) for (const url of ORDINARY_URLS) if (test(url)) matched++;
  const seconds = (performance.now() - started) / 1000;
  if (matched < 0) throw new Error('unreachable');
  return (rounds * ORDINARY_URLS.length) / seconds;
}

/** One URLPattern test in a worker thread, stopped at the limit: the time it took, or null when stopped. */
function platformHostileMs(path: string): Promise<number | null> {
  const source = `
    const { parentPort, workerData } = require('node:worker_threads');
    const pattern = new URLPattern({ pathname: workerData.pattern });
    const started = performance.now();
    pattern.test('https://example.test' + workerData.path);
    parentPort.postMessage(performance.now() - started);`;
  return new Promise((resolve, reject) => {
    const worker = new Worker(source, { eval: true, workerData: { pattern: HOSTILE, path } });
    const timer = setTimeout(() => {
      void worker.terminate();
      resolve(null);
    }, HOSTILE_LIMIT_MS);
    worker.once('message', (ms: number) => {
      clearTimeout(timer);
      void worker.terminate();
      resolve(ms);
    });
    worker.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

function oursHostileMs(path: string): number {
  const match = compileUrlPattern(HOSTILE);
  const url = new URL(`https://example.test${path}`);
  const started = performance.now();
  match(url);
  return performance.now() - started;
}

async function main(): Promise<void> {
  if (typeof URLPattern === 'undefined') {
    console.log(`bench:url-pattern: this Node (${process.version}) has no URLPattern; run it on Node 24 or later`);
    return;
  }
  const Platform = URLPattern;
  console.log(`bench:url-pattern on Node ${process.version}\n`);
  console.log('1. ordinary path globs over 2,000 URLs × 20 rounds (URLs matched per second)');
  for (const pattern of ORDINARY_PATTERNS) {
    const ours = compileUrlPattern(pattern);
    const platform = new Platform({ pathname: pattern });
    const oursRate = urlsPerSecond(ours);
    const platformRate = urlsPerSecond((url) => platform.test(url.href));
    console.log(
      `   ${pattern.padEnd(22)} quarry ${Math.round(oursRate).toLocaleString('en')}/s · URLPattern ` +
        `${Math.round(platformRate).toLocaleString('en')}/s · ratio ${(oursRate / platformRate).toFixed(2)}`,
    );
  }
  console.log(
    `\n2. the pattern ${HOSTILE} over a path of n "a"s (ms for one URL; URLPattern stopped at ${HOSTILE_LIMIT_MS} ms)`,
  );
  for (const n of [10, 20, 30, 40, 50, 60, 1000]) {
    const path = `/${'a'.repeat(n)}`;
    const ours = oursHostileMs(path);
    const platform = n <= 60 ? await platformHostileMs(path) : null;
    const shown = platform === null ? `over ${HOSTILE_LIMIT_MS} ms (stopped)` : `${platform.toFixed(2)} ms`;
    console.log(
      `   n = ${String(n).padStart(4)}: quarry ${ours.toFixed(3)} ms · URLPattern ${n <= 60 ? shown : 'not run'}`,
    );
  }
}

await main();
