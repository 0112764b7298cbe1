/**
 * Verification batches as durable jobs, on the one job surface
 * (services/jobs/job-capability.ts) in the poll_url form the spec shows.
 * Each claim's result is written to the record store as soon as it is known,
 * so the poll shows results per claim as they finish (from any instance), and
 * a job resumed after a restart only verifies the claims that had not
 * finished. Small batches are waited for through the job service's change
 * notices, which also carry the job's progress to the caller.
 */
import type { VerifyServices } from './uses.js';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { CallContext, Progress } from '../../core/capability.js';
import { AppError, toAppError } from '../../core/errors.js';
import type { JobHandler } from '../../app/plugin-services.js';
import { jobSurface, type JobWireForm } from '../../services/jobs/job-capability.js';
import type { JobRecord } from '../../services/jobs/types.js';
import {
  batchInputSchema,
  batchOutputSchema,
  batchStatusInputSchema,
  claimInputSchema,
  DEPTHS,
  type BatchAnswer,
  type BatchResult,
} from './schemas.js';
import { STEPS, verifyClaim, type VerifyDeps } from './verify-claim.js';

export const BATCH_JOB = 'verify.batch';
/** Claims of one batch verified at the same time. */
const CLAIM_CONCURRENCY = 2;
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

function resultsKey(key: string): string {
  return `verify:batch:${key}`;
}

async function readResults(services: VerifyServices, key: string, count: number): Promise<Array<BatchResult | null>> {
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
      writes = writes.then(() =>
        services.stores.records
          .set(resultsKey(input.results_key), { results: [...results] } satisfies StoredResults)
          .then(() => undefined),
      );
      return writes;
    };
    const total = input.claims.length * STEPS.length;
    // Claims run side by side, so progress counts steps done across the batch: it only ever grows.
    const stepsDone: number[] = results.map((r) => (r ? STEPS.length : 0));
    const progress = (index: number, steps: number, message: string): void => {
      stepsDone[index] = Math.max(stepsDone[index]!, steps);
      const p: Progress = { progress: stepsDone.reduce((a, b) => a + b, 0), total, message };
      job.progress(p);
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
          const answer = await verifyClaim(
            deps,
            claimInputSchema.parse({
              claim,
              depth: input.depth,
              include_sources: false,
              ...(input.engines ? { engines: input.engines } : {}),
            }),
            ctx,
            (step, detail) =>
              progress(
                index,
                STEPS.indexOf(step) + 1,
                `claim ${index + 1} of ${input.claims.length}, ${step}: ${detail}`,
              ),
          );
          result = { claim, verdict: answer.verdict, confidence: answer.confidence, summary: answer.summary };
        } catch (error) {
          if (job.signal.aborted) throw error; // shutdown: the claim is verified again on resume
          const appError = toAppError(error);
          result = {
            claim,
            verdict: 'unverifiable',
            confidence: 0,
            summary: `Unverifiable: the verification failed (${appError.code}: ${appError.message}).`,
          };
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

async function batchView(services: VerifyServices, job: JobRecord): Promise<BatchAnswer> {
  const input = jobInputSchema.parse(job.input);
  const finished =
    job.status === 'completed' && job.result
      ? (job.result as { results: BatchResult[] }).results
      : await readResults(services, input.results_key, input.claims.length);
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

/** The spec's form: the batch answer itself (200) both when accepted and when polled; poll_url is a path. */
function batchForm(services: VerifyServices): JobWireForm<typeof batchOutputSchema, typeof batchOutputSchema> {
  return {
    accepted: batchOutputSchema,
    acceptedHttpStatus: 200,
    statusUrlField: 'poll_url',
    toAccepted: (job) => batchView(services, job),
    status: batchOutputSchema,
    toStatus: (job) => batchView(services, job),
  };
}

/** verify.batch and its poll, verify.batch_status. */
export function batchCapabilities(services: VerifyServices, render: (answer: BatchAnswer) => string) {
  const batches = jobSurface(services.jobs, {
    kind: BATCH_JOB,
    form: batchForm(services),
    statusRoute: {
      id: 'verify.batch_status',
      title: 'Poll a verification batch',
      description:
        'Status of a verification batch job and the results of the claims finished so far, in the order given.',
      mcpTool: 'verify_batch_status',
      path: '/api/v1/verify/batch/:job_id',
      idField: 'job_id',
      input: batchStatusInputSchema,
      noun: 'verification batch job',
    },
  });
  const batch = batches.capability({
    id: 'verify.batch',
    title: 'Verify up to 10 claims',
    description:
      'Verify up to 10 claims as one durable job (quick or thorough each). Batches of up to 3 claims are ' +
      'waited for (up to 30 s, wait_seconds) and ' +
      'usually answer "completed"; larger ones answer "processing" with a poll_url at once. Results appear ' +
      'per claim as they finish; poll with verify_batch_status.',
    input: batchInputSchema,
    http: { method: 'POST', path: '/api/v1/verify/batch' },
    mcpTool: 'verify_batch',
    toMarkdown: (out) => render(out as BatchAnswer),
    submission: (input) => ({
      input: {
        claims: input.claims,
        depth: input.depth,
        ...(input.engines ? { engines: input.engines } : {}),
        results_key: randomBytes(12).toString('hex'),
      } satisfies JobInput,
    }),
    waitMs: (input) =>
      (input.wait_seconds ?? (input.claims.length <= SMALL_BATCH ? SMALL_BATCH_WAIT_SECONDS : 0)) * 1000,
  });
  return [batch, batches.statusCapability({ toMarkdown: render })];
}
