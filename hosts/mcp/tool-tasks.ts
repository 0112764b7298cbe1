/**
 * Long tool calls as MCP tasks (the io.modelcontextprotocol/tasks extension,
 * SEP-2663): a client that opts in gets a task handle at once instead of
 * waiting for the answer, and reads status and the final CallToolResult with
 * tasks/get from any instance. Every tool whose capability submits a job (its
 * `job` declaration, services/jobs/job-capability.ts) can run as a task: the
 * task is that job — the task id is the job id — so a task lives as long as
 * its job, survives a client's disconnect and is taken over with the job when
 * an instance dies (services/jobs). The job is read for the caller (ownership,
 * as its status tool reads it); answer and cancellation go through the tool's
 * job declaration, so its checks hold for tasks too.
 *
 * Transport-neutral: plain objects in, plain objects out.
 */
import type { QuarryApp } from '../../app/create-quarry.js';
import type { CallContext, CapabilityJob, JobSnapshot } from '../../core/capability.js';
import { AppError, publicError } from '../../core/errors.js';
import { isFinished } from '../../services/jobs/job-service.js';
import type { JobRecord, Jobs } from '../../services/jobs/types.js';
import { toolErrorOf, toolResultOf, type ToolCapability, type ToolResult } from './tool-calls.js';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** How a client is told to poll: often enough for a search, rarely enough for a research report. */
const POLL_INTERVAL_MS = 1000;

/** A tool that submits a job: the capability and its job declaration. */
type TaskTool = ToolCapability & { job: CapabilityJob };

/** SEP-2663 task states. */
export type TaskStatus = 'working' | 'completed' | 'failed' | 'cancelled';

export interface TaskState {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  pollIntervalMs: number;
  /**
   * How long from its creation the task is kept: once ended, until the job service drops the finished job
   * (jobs.keepFinishedHours); null while it runs (not yet bounded).
   */
  ttlMs: number | null;
  /** Once completed: the call's final result, as the tool would have answered it. */
  result?: ToolResult;
  /** Once failed: why, as a JSON-RPC error. */
  error?: { code: number; message: string; data?: unknown };
  [key: string]: unknown;
}

const INTERNAL_ERROR = -32603;

export class ToolTasks {
  private readonly byTool: Map<string, TaskTool>;
  /** Per job kind, the first tool submitting it: how a task id found in the job store is answered. */
  private readonly byKind = new Map<string, TaskTool>();

  constructor(
    private readonly app: QuarryApp,
    private readonly jobs: Jobs,
    capabilities: ToolCapability[],
  ) {
    // Only this installation's tools that submit (a status tool carries the same declaration but reads).
    const submitting = capabilities.filter(
      (c): c is TaskTool => c.job !== undefined && c.job.statusCapability !== c.id,
    );
    this.byTool = new Map(submitting.map((c) => [c.mcpTool, c]));
    for (const tool of submitting) if (!this.byKind.has(tool.job.kind)) this.byKind.set(tool.job.kind, tool);
  }

  /** Whether a call of this tool can become a task. */
  canRun(tool: string): boolean {
    return this.byTool.has(tool);
  }

  /** The tools that answer with a task when the client opts in (for the README and tools/list). */
  tools(): string[] {
    return [...this.byTool.keys()];
  }

  /**
   * Submits the call as its tool's job and answers the task handle; a refusal (bad input) is an error result as usual.
   */
  async start(
    name: string,
    args: Record<string, unknown>,
    ctx: CallContext,
  ): Promise<{ task: TaskState } | { result: ToolResult }> {
    const tool = this.byTool.get(name)!;
    try {
      const input = this.app.registry.validate(tool, args);
      return { task: this.stateOf(await tool.job.submit(tool.id, input, ctx), undefined) };
    } catch (error) {
      return { result: toolErrorOf(publicError(error, ctx.logger, { capability: tool.id })) };
    }
  }

  /**
   * The task's state from its job, read once on whichever instance answers: the job service's read for
   * this caller (another principal's job is unknown), the tool by the job's kind, and once completed
   * the tool's answer made from that same record.
   */
  async get(taskId: string, ctx: CallContext): Promise<TaskState> {
    return this.stateOfRecord((await this.find(taskId, ctx)).job, ctx);
  }

  /** The task's state from a job record already read for this caller (tasks/get, a listen stream's wait). */
  async stateOfRecord(job: JobRecord, ctx: CallContext): Promise<TaskState> {
    const tool = this.toolOf(job);
    const answer = job.status === 'completed' ? await tool.job.answer(job, ctx) : undefined;
    return this.stateOf(job, answer === undefined ? undefined : toolResultOf(tool, answer as Record<string, unknown>));
  }

  async cancel(taskId: string, ctx: CallContext): Promise<TaskState> {
    const { tool } = await this.find(taskId, ctx);
    return this.stateOf(await tool.job.cancel(taskId, ctx), undefined);
  }

  /**
   * The caller's job and the tool answering it; NOT_FOUND for an unknown id, another principal's job or a kind no tool
   * submits.
   */
  private async find(taskId: string, ctx: CallContext): Promise<{ job: JobRecord; tool: TaskTool }> {
    const job = await this.jobs.getFor(taskId, ctx.caller);
    if (!job) throw new AppError('NOT_FOUND', `no task ${taskId}`);
    return { job, tool: this.toolOf(job) };
  }

  private toolOf(job: JobRecord): TaskTool {
    const tool = this.byKind.get(job.kind);
    if (!tool) throw new AppError('NOT_FOUND', `no task ${job.id}`);
    return tool;
  }

  private stateOf(job: JobSnapshot & { cancelRequested?: boolean }, result: ToolResult | undefined): TaskState {
    const ttlMs = isFinished(job)
      ? Math.max(0, Date.parse(job.updatedAt) - Date.parse(job.createdAt)) +
        this.app.config.jobs.keepFinishedHours * 3_600_000
      : null;
    const base = {
      taskId: job.id,
      createdAt: job.createdAt,
      lastUpdatedAt: job.updatedAt,
      ttlMs,
      pollIntervalMs: POLL_INTERVAL_MS,
    };
    if (job.status === 'failed') {
      const error = job.error ?? { code: 'INTERNAL', message: 'the job failed' };
      if (error.code === 'CANCELLED') return { ...base, status: 'cancelled', statusMessage: error.message };
      return {
        ...base,
        status: 'failed',
        statusMessage: error.message,
        error: { code: INTERNAL_ERROR, message: error.message, data: { code: error.code } },
      };
    }
    if (job.status === 'completed' && result) return { ...base, status: 'completed', result };
    const message = job.cancelRequested ? 'cancelling' : (job.progress?.message ?? job.status);
    return { ...base, status: 'working', statusMessage: message };
  }
}

/** Whether a request's client capabilities opt in to tasks (2026-07-28: carried in the request's _meta). */
export function optsInToTasks(clientCapabilities: unknown): boolean {
  if (!clientCapabilities || typeof clientCapabilities !== 'object') return false;
  const extensions = (clientCapabilities as { extensions?: unknown }).extensions;
  return !!extensions && typeof extensions === 'object' && Object.hasOwn(extensions, TASKS_EXTENSION);
}
