/**
 * BrowserPool deadlines when the browser does not answer. A healthy Chromium
 * already leaves some calls pending for good (a newPage() whose context is
 * closed under it by a deadline never settles); for the rest, Chromium is
 * frozen on purpose with SIGSTOP (it is our own child: Playwright spawns it
 * from this process), so every CDP call — a new context, a new page, a context
 * close, a browser close — hangs. Every call must still settle by the
 * product's deadline (plus SETTLE_SLACK_MS) and leave the pool empty.
 */
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer, testPolicy, type LocalServer } from '../../core/http/fixtures/local-server.js';
import { OutboundClient } from '../../core/http/outbound-client.js';
import { silentLogger } from '../../core/logger.js';
import { BrowserPool } from './browser-pool.js';
import { until } from '../../test/sandbox/until.js';

const hasChromium = existsSync('/usr/bin/chromium') && process.platform === 'linux';

/** What the issue allows between the deadline and the call settling. */
const SETTLE_SLACK_MS = 1000;
/** How long a frozen browser may outlive the page that found it frozen (context-close bound + kill). */
const KILLED_WITHIN_MS = 8000;

/** Pids this file stopped, so that nothing stays frozen whatever the outcome. */
const frozen = new Set<number>();

function procStat(pid: number): { state: string; ppid: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [state = '', ppid = '0'] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state, ppid: Number(ppid) };
  } catch {
    return null;
  }
}

/** Browsers launched from this process (/usr/bin/chromium execs the real binary, so the pid is Playwright's child). */
function chromiumChildren(): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter((pid) => {
      if (procStat(pid)?.ppid !== process.pid) return false;
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('chromium');
      } catch {
        return false;
      }
    });
}

/** SIGSTOPs every running browser of this process: from now on it answers no CDP call. */
function freezeBrowsers(): number[] {
  const stopped = chromiumChildren().filter((pid) => procStat(pid)?.state !== 'T');
  for (const pid of stopped) {
    process.kill(pid, 'SIGSTOP');
    frozen.add(pid);
  }
  return stopped;
}

function isGone(pid: number): boolean {
  const stat = procStat(pid);
  return stat === null || stat.state === 'Z';
}

/** Waits until every process is gone (or a zombie); fails naming which were still there after ms. */
async function allGone(what: string, pids: Iterable<number>, ms: number): Promise<void> {
  const waited = [...pids];
  await until(
    () => `${what} (${waited.filter((pid) => !isGone(pid)).join(', ')} still running)`,
    async () => waited.every(isGone),
    ms,
    50,
  );
}

interface Settled {
  error: unknown;
  ms: number;
  hung: boolean;
}

/** Runs call and measures when it settles; gives up (hung) well after limitMs so a failing run still ends. */
async function timed(call: () => Promise<unknown>, limitMs: number): Promise<Settled> {
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<Settled>((resolve) => {
    timer = setTimeout(() => resolve({ error: undefined, ms: Date.now() - started, hung: true }), limitMs + 2000);
  });
  const run = call().then(
    () => ({ error: undefined, ms: Date.now() - started, hung: false }),
    (error: unknown) => ({ error, ms: Date.now() - started, hung: false }),
  );
  const settled = await Promise.race([run, hang]);
  clearTimeout(timer);
  return settled;
}

function expectSettled(settled: Settled, code: string, limitMs: number): void {
  expect(settled.hung, `still pending after ${settled.ms} ms`).toBe(false);
  expect(settled.error).toMatchObject({ code });
  expect(settled.ms).toBeLessThanOrEqual(limitMs);
}

let calls = 0;

/** A 1 s deadline, then a cancellation at 300 ms of a call allowed 20 s: each must settle within SETTLE_SLACK_MS. */
async function deadlineAndCancellation(pool: BrowserPool, base: string): Promise<void> {
  // A fresh URL per call, for guards that tell a page's first check from its routed request's.
  const url = (): string => `${base}?call=${++calls}`;
  const timedOut = await timed(() => pool.renderHtml(url(), { timeoutMs: 1000 }), 1000 + SETTLE_SLACK_MS);
  expectSettled(timedOut, 'TIMEOUT', 1000 + SETTLE_SLACK_MS);
  expect(pool.stats().openPages).toBe(0);

  const controller = new AbortController();
  const abort = setTimeout(() => controller.abort(), 300);
  const cancelled = await timed(
    () => pool.renderHtml(url(), { timeoutMs: 20_000, signal: controller.signal }),
    300 + SETTLE_SLACK_MS,
  );
  clearTimeout(abort);
  expectSettled(cancelled, 'CANCELLED', 300 + SETTLE_SLACK_MS);
  expect(pool.stats().openPages).toBe(0);
}

describe.runIf(hasChromium)('BrowserPool deadlines against a browser that stops answering', () => {
  let site: LocalServer;
  let outbound: OutboundClient;
  const pools: BrowserPool[] = [];

  function newPool(
    options: { recycleAfterPages?: number; executablePath?: string; launchTimeoutMs?: number } = {},
  ): BrowserPool {
    const pool = new BrowserPool(
      { maxConcurrentPages: 1, recycleAfterPages: 100, ...options },
      outbound,
      silentLogger(),
    );
    pools.push(pool);
    return pool;
  }

  beforeAll(async () => {
    site = await startLocalServer((request, response) => {
      const path = (request.url ?? '/').split('?')[0];
      response.setHeader('content-type', 'text/html; charset=utf-8');
      if (path === '/hang') return; // never answers
      if (path === '/hang-freeze') {
        // The request is on its way through route() and the proxy: freeze the browser right now.
        freezeBrowsers();
        return;
      }
      response.end(`<!doctype html><html><head><title>t</title></head><body><p>page ${path}</p></body></html>`);
    });
    outbound = new OutboundClient(testPolicy({ allowHosts: [`127.0.0.1:${site.port}`] }), silentLogger());
  });

  afterEach(async () => {
    // Frozen browsers the pool failed to kill would hang every close: kill them (ours, by pid) first.
    for (const pid of frozen) if (!isGone(pid)) process.kill(pid, 'SIGKILL');
    frozen.clear();
    // Closing is given up on after 10 s (timed's limit + its 2 s), so a hung close does not hang the suite.
    const closing = pools.splice(0);
    await timed(() => Promise.allSettled(closing.map((pool) => pool.close())), 8_000);
  });

  afterAll(async () => {
    await outbound?.close();
    await site?.close();
  });

  it('renders a never-answering page with a 1 s deadline and with a cancellation, ten times in a row', {
    timeout: 120_000,
  }, async () => {
    const pool = newPool();
    for (let round = 0; round < 10; round++) await deadlineAndCancellation(pool, `${site.origin}/hang`);
    // The one page slot was given back every time.
    const next = await timed(() => pool.renderHtml(`${site.origin}/after`, { timeoutMs: 5000 }), 5000);
    expect(next).toMatchObject({ hung: false, error: undefined });
    expect(pool.stats().openPages).toBe(0);
  });

  it('settles whatever step the deadline lands on: launch, new context, new page, navigation', {
    timeout: 120_000,
  }, async () => {
    // A relaunch every 3 pages, and deadlines 100 ms apart, so deadlines fall into every step of opening a page.
    const pool = newPool({ recycleAfterPages: 3 });
    for (let deadline = 100; deadline <= 1500; deadline += 100) {
      const settled = await timed(
        () => pool.renderHtml(`${site.origin}/hang?deadline=${deadline}`, { timeoutMs: deadline }),
        deadline + SETTLE_SLACK_MS,
      );
      expectSettled(settled, 'TIMEOUT', deadline + SETTLE_SLACK_MS);
      expect(pool.stats().openPages).toBe(0);
    }
  });

  it('does the same when the browser freezes as the never-answering request reaches the site', {
    timeout: 120_000,
  }, async () => {
    const pool = newPool();
    for (let round = 0; round < 10; round++) await deadlineAndCancellation(pool, `${site.origin}/hang-freeze`);
    expect(frozen.size).toBeGreaterThan(0);
    // Wedged browsers are killed, not kept: none of the frozen processes is left.
    await allGone('the frozen browsers to be killed', frozen, KILLED_WITHIN_MS);
    const next = await timed(() => pool.renderHtml(`${site.origin}/after`, { timeoutMs: 10_000 }), 10_000);
    expect(next).toMatchObject({ hung: false, error: undefined });
    expect(pool.stats()).toMatchObject({ openPages: 0 });
    expect(pool.stats().browserRestarts).toBeGreaterThan(0);
  });

  it('withPage settles when the browser freezes under the work and its context never closes', {
    timeout: 60_000,
  }, async () => {
    const pool = newPool();
    // Failing work, then a context close the frozen browser never answers: bounded by the close bound (3 s).
    let failedAt = 0;
    const failing = Date.now();
    const failed = await timed(
      () =>
        pool.withPage(async (page) => {
          await page.goto(`${site.origin}/plain`);
          expect(freezeBrowsers().length).toBe(1);
          failedAt = Date.now();
          throw new Error('the work failed');
        }),
      10_000,
    );
    expect(failed.hung, `still pending after ${failed.ms} ms`).toBe(false);
    expect(failed.error).toMatchObject({ message: 'the work failed' });
    expect(failing + failed.ms - failedAt).toBeLessThanOrEqual(3000 + SETTLE_SLACK_MS);
    expect(pool.stats().openPages).toBe(0);
    await allGone('the frozen browsers to be killed', frozen, KILLED_WITHIN_MS);

    // A cancelled withPage on a frozen browser settles at once.
    const controller = new AbortController();
    let abortedAt = 0;
    const started = Date.now();
    const cancelled = await timed(
      () =>
        pool.withPage(
          async (page) => {
            await page.goto(`${site.origin}/plain`);
            freezeBrowsers();
            setTimeout(() => {
              abortedAt = Date.now();
              controller.abort();
            }, 300);
            return page.title();
          },
          { signal: controller.signal },
        ),
      10_000,
    );
    expectSettled(cancelled, 'CANCELLED', 10_000);
    expect(started + cancelled.ms - abortedAt).toBeLessThanOrEqual(SETTLE_SLACK_MS);
    expect(pool.stats().openPages).toBe(0);

    // And so does one with a deadline of its own (on a fresh browser, once the frozen one is killed).
    await allGone('the frozen browsers to be killed', frozen, KILLED_WITHIN_MS);
    let frozenAt = 0;
    const begun = Date.now();
    const late = await timed(
      () =>
        pool.withPage(
          async (page) => {
            await page.goto(`${site.origin}/plain`);
            freezeBrowsers();
            frozenAt = Date.now();
            return page.title();
          },
          { timeoutMs: 5000 },
        ),
      5000 + SETTLE_SLACK_MS,
    );
    expectSettled(late, 'TIMEOUT', 5000 + SETTLE_SLACK_MS);
    expect(frozenAt).toBeGreaterThanOrEqual(begun);
    expect(pool.stats().openPages).toBe(0);
  });

  it('closes the pool within a few seconds when its browser is frozen, and kills it', { timeout: 60_000 }, async () => {
    const pool = newPool();
    await pool.renderHtml(`${site.origin}/plain`, { timeoutMs: 10_000 });
    const stopped = freezeBrowsers();
    expect(stopped.length).toBe(1);
    const closed = await timed(() => pool.close(), 4000);
    expect(closed).toMatchObject({ hung: false, error: undefined });
    expect(closed.ms).toBeLessThanOrEqual(4000);
    await allGone('the stopped browsers to be killed', stopped, 2000);
  });

  it('settles by the deadline and closes within a few seconds when the launch never finishes', {
    timeout: 60_000,
  }, async () => {
    // A "browser" that starts and never speaks CDP.
    const dir = mkdtempSync(join(tmpdir(), 'quarry-fake-chromium-'));
    const executablePath = join(dir, 'chromium');
    writeFileSync(executablePath, '#!/bin/sh\nsleep 600\n');
    chmodSync(executablePath, 0o755);
    try {
      const pool = newPool({ executablePath, launchTimeoutMs: 20_000 });
      const rendered = await timed(
        () => pool.renderHtml(`${site.origin}/plain`, { timeoutMs: 1000 }),
        1000 + SETTLE_SLACK_MS,
      );
      expectSettled(rendered, 'TIMEOUT', 1000 + SETTLE_SLACK_MS);
      expect(pool.stats().openPages).toBe(0);
      const launched = chromiumChildren();
      expect(launched.length).toBe(1);
      const closed = await timed(() => pool.close(), 4000);
      expect(closed).toMatchObject({ hung: false, error: undefined });
      expect(closed.ms).toBeLessThanOrEqual(4000);
      await allGone('the launched browsers to be killed', launched, 2000);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('settles by the deadline when the guard never answers, for the page or for its requests', {
    timeout: 60_000,
  }, async () => {
    const never = new Promise<void>(() => undefined);
    const silent = new BrowserPool(
      { maxConcurrentPages: 1, recycleAfterPages: 100 },
      { checkUrl: () => never },
      silentLogger(),
    );
    pools.push(silent);
    expectSettled(
      await timed(() => silent.renderHtml(`${site.origin}/plain`, { timeoutMs: 1000 }), 2000),
      'TIMEOUT',
      1000 + SETTLE_SLACK_MS,
    );
    expect(silent.stats().openPages).toBe(0);

    // The first check of a URL (the pool's own) passes; the routed request's check of it never answers.
    const seen = new Set<string>();
    const checkUrl = (url: string): Promise<void> => (seen.has(url) ? never : (seen.add(url), outbound.checkUrl(url)));
    const late = new BrowserPool({ maxConcurrentPages: 1, recycleAfterPages: 100 }, { checkUrl }, silentLogger());
    pools.push(late);
    for (let round = 0; round < 3; round++) await deadlineAndCancellation(late, `${site.origin}/plain`);
  });
});
