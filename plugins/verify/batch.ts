/**
 * Verification batches as durable jobs (services/jobs). Each claim's result
 * is written to the record store as soon as it is known, so the poll shows
 * results per claim as they finish, and a job resumed after a restart only
 * verifies the claims that had not finished. The job runner is used only
 * through submit() and get(), to keep the coupling thin.
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { CallContext, Progress } from '../../core/capability.js';
import { AppError, toAppError } from '../../core/errors.js';
import type { Principal } from '../../core/principal.js';
import type { JobHandler, PluginServices } from '../../app/plugin-services.js';
import type { JobRecord } from '../../services/jobs/types.js';
import { claimInputSchema, DEPTHS, type BatchAnswer, type BatchInput, type BatchResult } from './schemas.js';
import { STEPS, verifyClaim, type VerifyDeps } from './verify-claim.js';

export const BATCH_JOB = 'verify.batch';
/** Claims of one batch verified at the same time. */
const CLAIM_CONCURRENCY = 2;
const POLL_INTERVAL_MS = 200;
/** Batches of up to this many claims are waited for by default (wait_seconds). */
const SMALL_BATCH = 3;
const SMALL_BATCH_WAIT_SECONDS = 30;

/** What the job record holds: the request, and the key of its per-claim results. */
const jobInputSchema = z.object({
  claims: z.array(z.string()),
  depth: z.enum(DEPTHS),
  engines: z.array(z.string()).optional(),
  results_key: z.string(),
});
type JobInput = z.infer<typeof jobInputSchema>;

interface StoredResults {
  results: Array<BatchResult | null>;
}

/** Progress of running batches, by results key, for callers waiting in this process (MCP progress). */
const listeners = new Map<string, (p: Progress) => void>();

function resultsKey(key: string): string {
  return `verify:batch:${key}`;
}

async function readResults(services: PluginServices, key: string, count: number): Promise<Array<BatchResult | null>> {
  const stored = (await services.stores.records.get(resultsKey(key))) as StoredResults | undefined;
  return stored?.results ?? Array.from({ length: count }, () => null);
}

export function batchJobHandler(deps: VerifyDeps): JobHandler {
  return async (raw, job) => {
    const input: JobInput = jobInputSchema.parse(raw);
    const { services } = deps;
    const results = await readResults(services, input.results_key, input.claims.length);
    let writes = Promise.resolve();
    const save = (index: number, result: BatchResult): Promise<void> => {
      results[index] = result;
      // Writes are chained so a slower write never overwrites a newer list.
      writes = writes.then(() => services.stores.records.set(resultsKey(input.results_key), { results: [...results] } satisfies StoredResults).then(() => undefined));
      return writes;
    };
    const total = input.claims.length * STEPS.length;
    // Claims run side by side, so progress counts steps done across the batch: it only ever grows.
    const stepsDone: number[] = results.map((r) => (r ? STEPS.length : 0));
    const progress = (index: number, steps: number, message: string): void => {
      stepsDone[index] = Math.max(stepsDone[index]!, steps);
      const p: Progress = { progress: stepsDone.reduce((a, b) => a + b, 0), total, message };
      job.progress(p);
      listeners.get(input.results_key)?.(p);
    };
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < input.claims.length && !job.signal.aborted) {
        const index = next++;
        if (results[index]) continue; // finished before a restart
        const claim = input.claims[index]!;
        const ctx: CallContext = {
          signal: job.signal,
          logger: services.logger.child({ job: BATCH_JOB, claim: index }),
          host: 'job',
          progress: () => undefined,
        };
        let result: BatchResult;
        try {
          const answer = await verifyClaim(deps, claimInputSchema.parse({ claim, depth: input.depth, include_sources: false, ...(input.engines ? { engines: input.engines } : {}) }), ctx, (step, detail) =>
            progress(index, STEPS.indexOf(step) + 1, `claim ${index + 1} of ${input.claims.length}, ${step}: ${detail}`),
          );
          result = { claim, verdict: answer.verdict, confidence: answer.confidence, summary: answer.summary };
        } catch (error) {
          if (job.signal.aborted) throw error; // shutdown: the claim is verified again on resume
          const appError = toAppError(error);
          result = { claim, verdict: 'unverifiable', confidence: 0, summary: `Unverifiable: the verification failed (${appError.code}: ${appError.message}).` };
        }
        await save(index, result);
        progress(index, STEPS.length, `claim ${index + 1} of ${input.claims.length} done: ${result.verdict}`);
      }
    };
    await Promise.all(Array.from({ length: Math.min(CLAIM_CONCURRENCY, input.claims.length) }, worker));
    await writes;
    if (job.signal.aborted) throw new AppError('CANCELLED', 'the batch was interrupted');
    return { results: results as BatchResult[] };
  };
}

export function pollPath(jobId: string): string {
  return `/api/v1/verify/batch/${jobId}`;
}

export async function batchView(services: PluginServices, job: JobRecord): Promise<BatchAnswer> {
  const input = jobInputSchema.parse(job.input);
  const finished =
    job.status === 'completed' && job.result ? (job.result as { results: BatchResult[] }).results : await readResults(services, input.results_key, input.claims.length);
  const results = finished.filter((r): r is BatchResult => r !== null);
  const view: BatchAnswer = {
    job_id: job.id,
    status: job.status === 'completed' ? 'completed' : job.status === 'failed' ? 'failed' : 'processing',
    claims_count: input.claims.length,
    results,
    poll_url: pollPath(job.id),
    claims_completed: results.length,
    created_at: job.createdAt,
    updated_at: job.updatedAt,
  };
  if (job.error) view.error = job.error;
  return view;
}

export async function getBatchJob(services: PluginServices, jobId: string, viewer: Principal | undefined): Promise<JobRecord> {
  const job = await services.jobs.getFor(jobId, viewer);
  if (!job || job.kind !== BATCH_JOB) throw new AppError('NOT_FOUND', `job_id: no verification batch job ${jobId}`);
  return job;
}

/** Submits the batch, then waits up to wait_seconds for it (relaying progress), answering with what is done. */
export async function submitBatch(services: PluginServices, input: BatchInput, ctx: CallContext): Promise<BatchAnswer> {
  const key = randomBytes(12).toString('hex');
  const jobInput: JobInput = { claims: input.claims, depth: input.depth, ...(input.engines ? { engines: input.engines } : {}), results_key: key };
  const waitSeconds = input.wait_seconds ?? (input.claims.length <= SMALL_BATCH ? SMALL_BATCH_WAIT_SECONDS : 0);
  if (waitSeconds > 0) listeners.set(key, (p) => ctx.progress(p));
  try {
    let job = await services.jobs.submit(BATCH_JOB, jobInput, ctx.caller ? { owner: ctx.caller } : {});
    const deadline = performance.now() + waitSeconds * 1000;
    while (job.status !== 'completed' && job.status !== 'failed' && performance.now() < deadline && !ctx.signal.aborted) {
      await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
      job = (await services.jobs.get(job.id)) ?? job;
    }
    return await batchView(services, job);
  } finally {
    listeners.delete(key);
  }
}
