/**
 * The one job surface. A capability whose work runs as a durable job is
 * declared with a JobSurface: the job kind, when an input asks for the job,
 * the answer that accepts it and the status route, once. Every such
 * capability submits, waits (when it says so) and reads status here, so a
 * job is found, shown and refused (unknown id, other kind) in one place.
 *
 * What the caller sees is the area's wire form (JobWireForm), mapped from the
 * one JobRecord: the standard form (job-view.ts), the Search API's
 * request_id/pending form, verify's poll_url form.
 */
import { z } from 'zod';
import type { CallContext, CapabilityDefinition, CapabilityJob } from '../../core/capability.js';
import { AppError } from '../../core/errors.js';
import type { JobRecord, Jobs } from './types.js';

/** How an area shows its jobs: the accepting answer and the status answer, both from the record. */
export interface JobWireForm<A extends z.ZodType, S extends z.ZodType> {
  accepted: A;
  /** 202 by default; 200 where the original wire answers the job itself (verify batch). */
  acceptedHttpStatus?: 202 | 200;
  /** The field of the accepting answer that says where to poll. */
  statusUrlField: string;
  toAccepted(job: JobRecord, statusUrl: string): z.infer<A> | Promise<z.infer<A>>;
  status: S;
  toStatus(job: JobRecord): z.infer<S> | Promise<z.infer<S>>;
}

/** What one submit stores: the job's input and, when the caller asked for one, the webhook for its outcome. */
export interface JobSubmission {
  input: unknown;
  webhookUrl?: string;
}

export interface JobStatusRoute<I extends z.ZodType> {
  id: string;
  title: string;
  description: string;
  mcpTool: string;
  /** "/api/v1/…/:<idField>" */
  path: string;
  aliases?: string[];
  idField: string;
  input: I;
  /** What a missing job is called in the 404, e.g. "research job". */
  noun: string;
  errorBody?: CapabilityDefinition['errorBody'];
}

export interface JobSurfaceOptions<A extends z.ZodType, S extends z.ZodType, I extends z.ZodType> {
  kind: string;
  /** Prefix of generated job ids (default "job_"). */
  idPrefix?: string;
  form: JobWireForm<A, S>;
  statusRoute: JobStatusRoute<I>;
}

/** A capability that runs as a job: defineCapability's fields, with the job's parts instead of a handler. */
export type JobCapabilityDefinition<I extends z.ZodType, O extends z.ZodType, P> = Omit<
  CapabilityDefinition<I, O>,
  'handler' | 'output' | 'job' | 'toMarkdown'
> & {
  /** Checks (and work) both paths need before anything runs: bad input is a 4xx now, not a failed job later. */
  prepare?(input: z.infer<I>, ctx: CallContext): Promise<P>;
  /** Whether this input asks for the job; without it, every call is a job. */
  runsAsJob?(input: z.infer<I>): boolean;
  /** The answer when the work is done at once (when runsAsJob says no). */
  output?: O;
  run?(input: z.infer<I>, ctx: CallContext, prepared: P): Promise<z.infer<O>>;
  /** What the job stores: the input it runs with and the webhook. */
  submission(input: z.infer<I>, prepared: P, ctx: CallContext): JobSubmission | Promise<JobSubmission>;
  /** How long to wait for the job (hearing its progress) before answering; default 0. */
  waitMs?(input: z.infer<I>): number;
  toMarkdown?(output: unknown): string;
};

type Submitter = {
  runsAsJob(input: unknown): boolean;
  submit(input: unknown, ctx: CallContext): Promise<{ job: JobRecord }>;
};

export class JobSurface<A extends z.ZodType, S extends z.ZodType, I extends z.ZodType> {
  private readonly submitters = new Map<string, Submitter>();
  /** Accepting answers this surface produced: how the HTTP host tells them from finished answers (202). */
  private readonly acceptedAnswers = new WeakSet<object>();
  readonly job: CapabilityJob;

  constructor(
    private readonly jobs: Jobs,
    private readonly options: JobSurfaceOptions<A, S, I>,
  ) {
    this.job = {
      kind: options.kind,
      statusCapability: options.statusRoute.id,
      idField: options.statusRoute.idField,
      runsAsJob: (capabilityId, input) => this.submitter(capabilityId).runsAsJob(input),
      submit: async (capabilityId, input, ctx) => (await this.submitter(capabilityId).submit(input, ctx)).job,
      read: (jobId, ctx) => this.read(jobId, ctx),
      cancel: async (jobId, ctx) => {
        await this.read(jobId, ctx);
        return (await this.jobs.cancel(jobId)) ?? this.notFound(jobId);
      },
      answer: async (snapshot, ctx) => {
        // The record the caller read (JobSnapshot is its host-facing view); a job of another kind is not this
        // surface's.
        const job = snapshot as JobRecord;
        if (job.kind !== options.kind) return this.notFound(job.id);
        // A form that answers the job itself (200) answers a finished job the same way; otherwise the answer is the
        // job's result.
        return answersWithJob(options.form) ? options.form.toAccepted(job, this.statusUrl(job.id, ctx)) : job.result;
      },
    };
  }

  /**
   * The one read of a job for callers: unknown ids, another principal's jobs and jobs of another kind are the same 404.
   */
  async read(jobId: string, ctx: CallContext): Promise<JobRecord> {
    const job = await this.jobs.getFor(jobId, ctx.caller);
    if (!job || job.kind !== this.options.kind) return this.notFound(jobId);
    return job;
  }

  /** Where the status of a job is read: absolute when the host knows its address, else the path. */
  statusUrl(jobId: string, ctx: CallContext): string {
    const route = this.options.statusRoute;
    const path = route.path.replace(`:${route.idField}`, jobId);
    return ctx.baseUrl ? `${ctx.baseUrl}${path}` : path;
  }

  /**
   * Declares a capability that submits this kind (answered at once when `run` is given and the input does not ask for
   * the job).
   */
  capability<CI extends z.ZodType, O extends z.ZodType, P = undefined>(
    definition: JobCapabilityDefinition<CI, O, P>,
  ): CapabilityDefinition<CI, z.ZodType> {
    const { prepare, runsAsJob, run, submission, waitMs, output, toMarkdown, ...declared } = definition;
    const form = this.options.form;
    if (this.submitters.has(definition.id)) throw new Error(`job capability "${definition.id}" is declared twice`);
    if (run && !runsAsJob) throw new Error(`job capability "${definition.id}": run without runsAsJob is never called`);
    const wantsJob = (input: z.infer<CI>): boolean => (runsAsJob ? runsAsJob(input) : true);
    const submit = async (input: z.infer<CI>, ctx: CallContext, prepared?: P) => {
      if (!this.jobs.has(this.options.kind))
        throw new AppError(
          'UNAVAILABLE',
          `${definition.id}: jobs of kind "${this.options.kind}" do not run on this installation`,
        );
      const ready = prepared ?? ((await prepare?.(input, ctx)) as P);
      const { input: jobInput, webhookUrl } = await submission(input, ready, ctx);
      // The caller owns the job: only they (and admins) read it (read below).
      const job = await this.jobs.submit(this.options.kind, jobInput, {
        ...(this.options.idPrefix ? { idPrefix: this.options.idPrefix } : {}),
        ...(webhookUrl ? { webhookUrl } : {}),
        ...(ctx.caller ? { owner: ctx.caller } : {}),
      });
      return { job };
    };
    this.submitters.set(definition.id, {
      runsAsJob: (input) => wantsJob(input as z.infer<CI>),
      submit: (input, ctx) => submit(input as z.infer<CI>, ctx),
    });
    const acceptedHttp = !answersWithJob(form)
      ? { accepted: { output: form.accepted, is: (out: unknown) => this.isAccepted(out) } }
      : {};
    return {
      ...declared,
      output: output ? z.union([output, form.accepted]) : form.accepted,
      http: { ...declared.http, ...acceptedHttp },
      job: this.job,
      ...(toMarkdown ? { toMarkdown } : {}),
      handler: async (input: z.infer<CI>, ctx: CallContext) => {
        const prepared = (await prepare?.(input, ctx)) as P;
        // Awaited rather than returned: a promise returned from an async function costs two more turns of the microtask
        // queue.
        if (run && !wantsJob(input)) return await run(input, ctx, prepared);
        const { job } = await submit(input, ctx, prepared);
        const wait = waitMs?.(input) ?? 0;
        const current =
          wait > 0
            ? ((await this.jobs.waitFor(job.id, {
                timeoutMs: wait,
                signal: ctx.signal,
                onProgress: (p) => ctx.progress(p),
              })) ?? job)
            : job;
        const answer = await form.toAccepted(current, this.statusUrl(job.id, ctx));
        if (answer && typeof answer === 'object') this.acceptedAnswers.add(answer);
        return answer;
      },
    };
  }

  /** The capability that reads one job's status: GET on the status route. */
  statusCapability(extra: { toMarkdown?(output: z.infer<S>): string } = {}): CapabilityDefinition<I, S> {
    const route = this.options.statusRoute;
    return {
      id: route.id,
      title: route.title,
      description: route.description,
      input: route.input,
      output: this.options.form.status,
      http: { method: 'GET', path: route.path, ...(route.aliases ? { aliases: route.aliases } : {}) },
      mcpTool: route.mcpTool,
      readOnly: true,
      job: this.job,
      ...(route.errorBody ? { errorBody: route.errorBody } : {}),
      ...(extra.toMarkdown ? { toMarkdown: extra.toMarkdown } : {}),
      handler: async (input, ctx) =>
        this.options.form.toStatus(await this.read(String((input as Record<string, unknown>)[route.idField]), ctx)),
    };
  }

  private isAccepted(output: unknown): boolean {
    return typeof output === 'object' && output !== null && this.acceptedAnswers.has(output);
  }

  private submitter(capabilityId: string): Submitter {
    const found = this.submitters.get(capabilityId);
    if (!found)
      throw new AppError(
        'NOT_FOUND',
        `capability "${capabilityId}" does not submit jobs of kind "${this.options.kind}"`,
      );
    return found;
  }

  private notFound(jobId: string): never {
    const route = this.options.statusRoute;
    throw new AppError('NOT_FOUND', `${route.idField}: no ${route.noun} ${jobId}`);
  }
}

/** Whether the area's accepting answer is the job itself (verify batch), not an acknowledgement to poll. */
function answersWithJob(form: JobWireForm<z.ZodType, z.ZodType>): boolean {
  return (form.acceptedHttpStatus ?? 202) === 200;
}

export function jobSurface<A extends z.ZodType, S extends z.ZodType, I extends z.ZodType>(
  jobs: Jobs,
  options: JobSurfaceOptions<A, S, I>,
): JobSurface<A, S, I> {
  return new JobSurface(jobs, options);
}
