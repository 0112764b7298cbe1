/**
 * How every area shows its jobs to callers: the answer that accepts one
 * (job id, status, where to poll) and the status a poll returns. One shape,
 * so that agent research, RAG builds, searches and verify batches read alike;
 * each area adds its own result type and its own fields.
 */
import { z } from 'zod';
import type { JobWireForm } from './job-capability.js';
import type { JobRecord } from './types.js';

export const jobProgressSchema = z.object({
  progress: z.number(),
  total: z.number().optional(),
  message: z.string().optional(),
});
export const jobErrorSchema = z.object({ code: z.string(), message: z.string() });
export const jobStatusSchema = z.enum(['queued', 'processing', 'completed', 'failed']);

/** The status of a job with a result of type `result` (the status route's output schema). */
export function jobStatusViewSchema<R extends z.ZodType>(result: R) {
  return z.object({
    job_id: z.string(),
    status: jobStatusSchema,
    created_at: z.string(),
    updated_at: z.string(),
    progress: jobProgressSchema.optional(),
    result: result.optional(),
    error: jobErrorSchema.optional(),
  });
}

export interface JobStatusView<R> {
  job_id: string;
  status: JobRecord['status'];
  created_at: string;
  updated_at: string;
  progress?: z.infer<typeof jobProgressSchema>;
  result?: R;
  error?: z.infer<typeof jobErrorSchema>;
}

/** A job record as its status route shows it; the result is the area's own answer type. */
export function jobStatusView<R>(job: JobRecord): JobStatusView<R> {
  return {
    job_id: job.id,
    status: job.status,
    created_at: job.createdAt,
    updated_at: job.updatedAt,
    ...(job.progress ? { progress: job.progress } : {}),
    ...(job.result !== undefined ? { result: job.result as R } : {}),
    ...(job.error ? { error: job.error } : {}),
  };
}

/** The answer that accepts a job: sent as 202 over HTTP by capabilities that declare it (http.accepted). */
export const jobAcceptedSchema = z.object({
  job_id: z.string(),
  status: z.literal('processing'),
  status_url: z.string(),
});

export function jobAccepted(job: JobRecord, statusUrl: string): z.infer<typeof jobAcceptedSchema> {
  return { job_id: job.id, status: 'processing', status_url: statusUrl };
}

/** The standard form: 202 {job_id, status, status_url}, and the status view with the area's result. */
export function standardJobForm<R extends z.ZodType>(
  result: R,
): JobWireForm<typeof jobAcceptedSchema, ReturnType<typeof jobStatusViewSchema<R>>> {
  return {
    accepted: jobAcceptedSchema,
    statusUrlField: 'status_url',
    toAccepted: jobAccepted,
    status: jobStatusViewSchema(result),
    toStatus: (job) => jobStatusView<z.infer<R>>(job) as z.infer<ReturnType<typeof jobStatusViewSchema<R>>>,
  };
}
