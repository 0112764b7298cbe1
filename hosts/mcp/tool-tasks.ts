/**
 * Long tool calls as MCP tasks (the io.modelcontextprotocol/tasks extension,
 * SEP-2663): a client that opts in gets a task handle at once instead of
 * waiting for the answer, and reads status and the final CallToolResult with
 * tasks/get from any instance. The task is the job the tool's own async mode
 * submits — the task id is the job id — so a task lives as long as its job,
 * survives a client's disconnect and is taken over with the job when an
 * instance dies (services/jobs). Status is read through the tool's own status
 * capability, so whatever that capability checks (ownership, kind) holds for
 * tasks too; only cancellation goes to the job service directly.
 *
 * Transport-neutral: plain objects in, plain objects out.
 */
import type { QuarryApp } from '../../app/create-quarry.js';
import type { AnyCapability, CallContext } from '../../core/capability.js';
import { AppError } from '../../core/errors.js';
import type { JobRecord, Jobs } from '../../services/jobs/types.js';
import { toolErrorOf, toolResultOf, type ToolResult } from './tool-calls.js';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** How a client is told to poll: often enough for a search, rarely enough for a research report. */
const POLL_INTERVAL_MS = 1000;

/** A tool that can run as a task: how its async mode is asked for, and where its job's status is read. */
interface TaskRoute {
  tool: string;
  /** The job kind the tool's async mode submits. */
  jobKind: string;
  /** The call's arguments with the tool's async switch on. */
  async(args: Record<string, unknown>): Record<string, unknown>;
  /** The status tool and its input for a job id. */
  statusTool: string;
  statusInput(jobId: string): Record<string, unknown>;
  /** The tool's answer in a finished status view. */
  answerOf(view: Record<string, unknown>): unknown;
}

const resultField = (view: Record<string, unknown>): unknown => view.result;

const TASK_ROUTES: TaskRoute[] = [
  { tool: 'search_web', jobKind: 'search.web', async: (a) => ({ ...a, async_mode: true }), statusTool: 'search_job_status', statusInput: (id) => ({ request_id: id }), answerOf: resultField },
  { tool: 'enhanced_search', jobKind: 'enhanced.search', async: (a) => ({ ...a, async_mode: true }), statusTool: 'enhanced_search_job_status', statusInput: (id) => ({ request_id: id }), answerOf: resultField },
  { tool: 'agent_research', jobKind: 'agent.research', async: (a) => ({ ...a, async: true }), statusTool: 'agent_research_status', statusInput: (id) => ({ job_id: id }), answerOf: resultField },
  { tool: 'rag_research', jobKind: 'rag.research', async: (a) => ({ ...a, async: true }), statusTool: 'rag_research_status', statusInput: (id) => ({ job_id: id }), answerOf: resultField },
  { tool: 'rag_corpus_resume', jobKind: 'rag.research', async: (a) => ({ ...a, async: true }), statusTool: 'rag_research_status', statusInput: (id) => ({ job_id: id }), answerOf: resultField },
  // A batch's status view is its answer; wait_seconds 0 answers at once.
  { tool: 'verify_batch', jobKind: 'verify.batch', async: (a) => ({ ...a, wait_seconds: 0 }), statusTool: 'verify_batch_status', statusInput: (id) => ({ job_id: id }), answerOf: (view) => view },
];

/** SEP-2663 task states. */
export type TaskStatus = 'working' | 'completed' | 'failed' | 'cancelled';

export interface TaskState {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  pollIntervalMs: number;
  /** Once completed: the call's final result, as the tool would have answered it. */
  result?: ToolResult;
  /** Once failed: why, as a JSON-RPC error. */
  error?: { code: number; message: string; data?: unknown };
  [key: string]: unknown;
}

const INTERNAL_ERROR = -32603;

export class ToolTasks {
  private readonly byTool: Map<string, TaskRoute>;
  private readonly byName: Map<string, AnyCapability>;

  constructor(
    private readonly app: QuarryApp,
    private readonly jobs: Jobs,
    capabilities: AnyCapability[],
  ) {
    const byName = new Map(capabilities.map((c) => [c.mcpTool, c]));
    // Only tools (and their status tools) this installation exposes.
    const routes = TASK_ROUTES.filter((r) => byName.has(r.tool) && byName.has(r.statusTool));
    this.byTool = new Map(routes.map((r) => [r.tool, r]));
    this.byName = byName;
  }

  /** Whether a call of this tool can become a task. */
  canRun(tool: string): boolean {
    return this.byTool.has(tool);
  }

  /** The tools that answer with a task when the client opts in (for the README and tools/list). */
  tools(): string[] {
    return [...this.byTool.keys()];
  }

  /** Starts the call as its tool's job and answers the task handle; a refusal (bad input) is an error result as usual. */
  async start(tool: string, args: Record<string, unknown>, ctx: CallContext): Promise<{ task: TaskState } | { result: ToolResult }> {
    const route = this.byTool.get(tool)!;
    const capability = this.byName.get(tool)!;
    let accepted: Record<string, unknown>;
    try {
      accepted = (await this.app.registry.invoke(capability.id, route.async(args), ctx)) as Record<string, unknown>;
    } catch (error) {
      return { result: toolErrorOf(error) };
    }
    const job = typeof accepted.job_id === 'string' ? await this.jobs.get(accepted.job_id) : null;
    // A tool may answer without a job after all (a corpus that is already complete): that answer is the result.
    if (!job || job.kind !== route.jobKind) return { result: toolResultOf(capability, accepted) };
    return { task: this.stateOf(job, route, undefined) };
  }

  /** The task's state from the job, read on whichever instance answers; through the status tool, with whatever it checks. */
  async get(taskId: string, ctx: CallContext): Promise<TaskState> {
    // The job first: once it reads completed, the view read after it holds the answer.
    const { job, route } = await this.find(taskId);
    return this.stateOf(job, route, await this.readStatus(route, taskId, ctx));
  }

  async cancel(taskId: string, ctx: CallContext): Promise<TaskState> {
    const { route } = await this.find(taskId);
    await this.readStatus(route, taskId, ctx);
    const job = await this.jobs.cancel(taskId);
    if (!job) throw new AppError('NOT_FOUND', `no task ${taskId}`);
    return this.stateOf(job, route, undefined);
  }

  private async readStatus(route: TaskRoute, taskId: string, ctx: CallContext): Promise<Record<string, unknown>> {
    const status = this.byName.get(route.statusTool)!;
    return (await this.app.registry.invoke(status.id, route.statusInput(taskId), ctx)) as Record<string, unknown>;
  }

  private async find(taskId: string): Promise<{ job: JobRecord; route: TaskRoute }> {
    const job = await this.jobs.get(taskId);
    const route = job ? TASK_ROUTES.find((r) => r.jobKind === job.kind && this.byTool.has(r.tool)) : undefined;
    if (!job || !route) throw new AppError('NOT_FOUND', `no task ${taskId}`);
    return { job, route };
  }

  private stateOf(job: JobRecord, route: TaskRoute, view: Record<string, unknown> | undefined): TaskState {
    const base = { taskId: job.id, createdAt: job.createdAt, lastUpdatedAt: job.updatedAt, pollIntervalMs: POLL_INTERVAL_MS };
    if (job.status === 'failed') {
      const error = job.error ?? { code: 'INTERNAL', message: 'the job failed' };
      if (error.code === 'CANCELLED') return { ...base, status: 'cancelled', statusMessage: error.message };
      return { ...base, status: 'failed', statusMessage: error.message, error: { code: INTERNAL_ERROR, message: error.message, data: { code: error.code } } };
    }
    if (job.status === 'completed' && view) {
      const answer = route.answerOf(view) as Record<string, unknown>;
      return { ...base, status: 'completed', result: toolResultOf(this.byName.get(route.tool)!, answer) };
    }
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
