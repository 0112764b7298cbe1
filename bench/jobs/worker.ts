/**
 * A job-running process for the jobs benchmark: `node worker.js <backend>
 * <dataDir> <redisUrl> <concurrency>`. Runs two kinds: bench.noop (answers
 * at once; prints "done" per job) and bench.hold (holds its first run until
 * the process is killed; a run after an interruption answers at once). On
 * start it submits the hold job named by HOLD_JOB, if set (idempotent: every
 * worker and every restart submits the same id). Prints "ready" once running.
 */
import type { JobBackendName } from '../../services/jobs/types.js';
import { openJobs } from './job-services.js';

const [backend, dataDir, redisUrl, concurrency] = process.argv.slice(2) as [JobBackendName, string, string, string];
const { jobs } = await openJobs(backend, { dataDir, redisUrl }, Number(concurrency));
jobs.define('bench.noop', async () => {
  process.stdout.write('done\n');
  return null;
});
jobs.define('bench.hold', async (_input, ctx) => {
  process.stdout.write(`started ${ctx.id}\n`);
  const job = await jobs.get(ctx.id);
  // The first run holds; a run that took over after a kill finishes.
  if (job && job.attempts <= 1) await new Promise(() => undefined);
  return null;
});
await jobs.start();
if (process.env.HOLD_JOB) await jobs.submit('bench.hold', null, { jobId: process.env.HOLD_JOB });
process.stdout.write('ready\n');
