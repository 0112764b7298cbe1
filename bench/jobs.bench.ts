/**
 * npm run bench:jobs — the job mechanism's figures for both backends, side
 * by side: jobs/s of a trivial job with one and two workers, and the
 * failover time over 10 SIGKILLs of the worker running a job, with the
 * default settings.
 *
 * Embedded: one process (the queue belongs to one data directory); "two
 * workers" is a concurrency of 2, and failover is the restart of the killed
 * process on the same directory. BullMQ: worker processes on one local
 * redis-server; "two workers" is two processes, and failover is the other
 * process taking the job over (lock expiry + stalled check).
 *
 * Options: --jobs N (default 1000), --kills N (default 10).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startLocalRedis } from '../test/sandbox/local-redis.js';
import type { JobBackendName } from '../services/jobs/types.js';
import { openJobs } from './jobs/job-services.js';

const { values } = parseArgs({
  options: { jobs: { type: 'string', default: '1000' }, kills: { type: 'string', default: '10' } },
});
const JOBS = Number(values.jobs);
const KILLS = Number(values.kills);
const WORKER = join(import.meta.dirname, 'jobs', 'worker.js');
const BACKENDS: JobBackendName[] = ['embedded', 'bullmq'];

interface Worker {
  child: ChildProcess;
  lines: string[];
  exited: Promise<void>;
  /** Resolves at the first line matching, counting from now. */
  next(pattern: RegExp): Promise<string>;
}

function startWorker(
  backend: JobBackendName,
  dataDir: string,
  redisUrl: string,
  concurrency: number,
  env: Record<string, string> = {},
): Worker {
  const child = spawn(process.execPath, [WORKER, backend, dataDir, redisUrl, String(concurrency)], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  const lines: string[] = [];
  const waiters: Array<{ pattern: RegExp; resolve: (line: string) => void }> = [];
  let buffered = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    const parts = buffered.split('\n');
    buffered = parts.pop()!;
    for (const line of parts) {
      lines.push(line);
      for (const waiter of [...waiters]) {
        if (waiter.pattern.test(line)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(line);
        }
      }
    }
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { child, lines, exited, next: (pattern) => new Promise((resolve) => waiters.push({ pattern, resolve })) };
}

async function stopWorker(worker: Worker, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill(signal);
  await worker.exited;
}

/** jobs/s: N trivial jobs submitted at once, until the last has run. */
async function throughput(backend: JobBackendName, workers: number, redisUrl: string): Promise<number> {
  const dataDir = mkdtempSync(join(tmpdir(), 'quarry-bench-jobs-'));
  try {
    if (backend === 'embedded') {
      const { jobs, close } = await openJobs(backend, { dataDir, redisUrl }, workers);
      let done = 0;
      let allDone!: () => void;
      const finished = new Promise<void>((resolve) => (allDone = resolve));
      jobs.define('bench.noop', async () => {
        if (++done === JOBS) allDone();
        return null;
      });
      await jobs.start();
      const started = performance.now();
      await submitAll(jobs);
      await finished;
      const seconds = (performance.now() - started) / 1000;
      await close();
      return JOBS / seconds;
    }
    const { jobs, close } = await openJobs(backend, { dataDir, redisUrl }, 1);
    jobs.define('bench.noop', async () => null);
    const pool = Array.from({ length: workers }, () => startWorker(backend, dataDir, redisUrl, 1));
    await Promise.all(pool.map((worker) => worker.next(/^ready$/)));
    const counted = () => pool.reduce((sum, worker) => sum + worker.lines.filter((line) => line === 'done').length, 0);
    const started = performance.now();
    await submitAll(jobs);
    while (counted() < JOBS) await new Promise((resolve) => setTimeout(resolve, 5));
    const seconds = (performance.now() - started) / 1000;
    await Promise.all(pool.map((worker) => stopWorker(worker, 'SIGTERM')));
    await close();
    return JOBS / seconds;
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function submitAll(jobs: { submit(kind: string, input: unknown): Promise<unknown> }): Promise<void> {
  const BATCH = 50;
  for (let i = 0; i < JOBS; i += BATCH)
    await Promise.all(Array.from({ length: Math.min(BATCH, JOBS - i) }, () => jobs.submit('bench.noop', null)));
}

/** Milliseconds from the SIGKILL of the process running a job until a run of it starts again, KILLS times. */
async function failover(backend: JobBackendName, redisUrl: string): Promise<number[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'quarry-bench-failover-'));
  const times: number[] = [];
  const count = backend === 'bullmq' ? 2 : 1;
  try {
    for (let round = 0; round < KILLS; round++) {
      const env = { HOLD_JOB: `hold-${round}` };
      const started = new RegExp(`^started hold-${round}$`);
      const pool = Array.from({ length: count }, () => startWorker(backend, dataDir, redisUrl, 1, env));
      const starts = pool.map((worker) => worker.next(started));
      await Promise.all(pool.map((worker) => worker.next(/^ready$/)));
      const victim = pool[await Promise.race(starts.map((start, i) => start.then(() => i)))]!;
      await stopWorker(victim);
      const killedAt = performance.now();
      let takeover: Promise<string>;
      if (backend === 'embedded') {
        const restarted = startWorker(backend, dataDir, redisUrl, 1, env);
        pool.push(restarted);
        takeover = restarted.next(started);
      } else {
        takeover = pool.find((worker) => worker !== victim)!.next(started);
      }
      await takeover;
      times.push(performance.now() - killedAt);
      process.stderr.write(`  ${backend} failover ${round + 1}/${KILLS}: ${Math.round(times.at(-1)!)} ms\n`);
      await Promise.all(pool.map((worker) => stopWorker(worker)));
    }
    return times;
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

const redis = await startLocalRedis();
try {
  const rows: string[][] = [];
  for (const backend of BACKENDS) {
    const rates: number[] = [];
    for (const workers of [1, 2]) {
      process.stderr.write(`${backend}: ${JOBS} trivial jobs with ${workers} worker(s)…\n`);
      rates.push(await throughput(backend, workers, redis.url));
    }
    process.stderr.write(`${backend}: failover over ${KILLS} SIGKILLs…\n`);
    const times = (await failover(backend, redis.url)).sort((a, b) => a - b);
    rows.push([
      backend,
      rates[0]!.toFixed(0),
      rates[1]!.toFixed(0),
      `${seconds(percentile(times, 0.5))} / ${seconds(times.at(-1)!)}`,
      backend === 'embedded' ? 'restart of the killed process' : 'the other worker process takes over',
    ]);
  }
  const header = [
    'backend',
    'jobs/s, 1 worker',
    'jobs/s, 2 workers',
    `failover p50 / max (${KILLS} SIGKILLs)`,
    'failover is',
  ];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((cell, i) => cell.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(
    `\nJob mechanism, ${JOBS} trivial jobs per run; default lock ${20} s and stall check ${15} s (BullMQ); Node ${process.version}\n`,
  );
  console.log(line(header));
  console.log(line(widths.map((w) => '-'.repeat(w))));
  for (const row of rows) console.log(line(row));
} finally {
  await redis.stop();
}
