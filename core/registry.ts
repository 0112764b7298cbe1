/**
 * The capability registry: every capability is registered once and invoked
 * through `invoke`, which validates the input (no coercion), runs the handler
 * and records metrics, identically for every host.
 */
import type { z } from 'zod';
import type { AnyCapability, CallContext } from './capability.js';
import { AppError, publicError } from './errors.js';
import { InputMemo } from './input-memo.js';
import { findInputShapeProblem } from './input-shape.js';

const MCP_TOOL_NAME = /^[a-z][a-z0-9_]{0,63}$/;
const CAPABILITY_ID = /^[a-z][a-z0-9_]*\.[a-z][a-z0-9_]*$/;

type CallEvent = { id: string; host: CallContext['host']; durationMs: number; status: string };
export type CallObserver = (event: CallEvent) => void;

export class CapabilityRegistry {
  private readonly byId = new Map<string, AnyCapability>();
  private readonly byTool = new Map<string, AnyCapability>();
  private readonly byRoute = new Map<string, AnyCapability>();
  private readonly observers: CallObserver[] = [];
  private readonly inputs = new InputMemo();

  register(capability: AnyCapability, owner = 'unknown'): void {
    const where = `capability "${capability.id}" of plugin "${owner}"`;
    if (!CAPABILITY_ID.test(capability.id)) throw new Error(`${where}: id must look like "<area>.<action>"`);
    if (capability.mcpTool !== undefined && !MCP_TOOL_NAME.test(capability.mcpTool))
      throw new Error(`${where}: MCP tool name "${capability.mcpTool}" must match ${MCP_TOOL_NAME}`);
    if (!capability.http.path.startsWith('/api/v1/')) throw new Error(`${where}: HTTP path must start with /api/v1/`);
    const route = `${capability.http.method} ${capability.http.path}`;
    if (this.byId.has(capability.id)) throw new Error(`${where}: id already registered`);
    if (capability.mcpTool !== undefined && this.byTool.has(capability.mcpTool))
      throw new Error(`${where}: MCP tool "${capability.mcpTool}" already registered`);
    if (this.byRoute.has(route)) throw new Error(`${where}: route ${route} already registered`);
    this.byId.set(capability.id, capability);
    if (capability.mcpTool !== undefined) this.byTool.set(capability.mcpTool, capability);
    this.byRoute.set(route, capability);
  }

  list(): AnyCapability[] {
    return [...this.byId.values()];
  }

  get(id: string): AnyCapability | undefined {
    return this.byId.get(id);
  }

  byToolName(name: string): AnyCapability | undefined {
    return this.byTool.get(name);
  }

  onCall(observer: CallObserver): void {
    this.observers.push(observer);
  }

  /** Validates raw input against the capability's schema; throws INVALID_INPUT naming the fields. */
  validate(capability: AnyCapability, raw: unknown): unknown {
    // Remembered only after passing the shape check below as the same JSON text (or the same frozen value), which fixes
    // its keys and depth.
    return capability.sharedInput
      ? this.inputs.validated(capability.id, raw, () => checkInput(capability, raw))
      : checkInput(capability, raw);
  }

  async invoke(id: string, raw: unknown, ctx: CallContext): Promise<unknown> {
    const capability = this.byId.get(id);
    if (!capability) throw new AppError('NOT_FOUND', `no capability "${id}"`);
    const started = performance.now();
    let status = 'ok';
    try {
      const input = this.validate(capability, raw);
      // Without reading the signal when the host says otherwise: HTTP makes it only for work that reads it.
      if (ctx.cancelled ? ctx.cancelled() : ctx.signal.aborted)
        throw new AppError('CANCELLED', 'the request was cancelled before it started');
      return await capability.handler(input, ctx);
    } catch (error) {
      const appError = publicError(error, ctx.logger, { capability: id });
      status = appError.code;
      throw capability.errorBody ? appError.withBodyExtras(capability.errorBody(appError)) : appError;
    } finally {
      const durationMs = performance.now() - started;
      for (const observer of this.observers) observer({ id, host: ctx.host, durationMs, status });
    }
  }
}

function checkInput(capability: AnyCapability, raw: unknown): unknown {
  const problem = findInputShapeProblem(raw);
  if (problem) throw shapeRefusal(problem);
  const result = capability.input.safeParse(raw ?? {});
  if (!result.success) throw invalidInput(result.error);
  return result.data;
}

/** INVALID_INPUT for a forbidden key or too deep a value, in the same shape as a schema failure. */
export function shapeRefusal(problem: { field: string; message: string }): AppError {
  return new AppError('INVALID_INPUT', `invalid input: ${problem.field}: ${problem.message}`, {
    details: { issues: [problem] },
  });
}

/** One readable message naming every bad field, plus the structured issues. */
export function invalidInput(error: z.ZodError): AppError {
  const issues = error.issues.map((issue) => {
    const path = issue.path.length > 0 ? issue.path.join('.') : '(body)';
    let message = issue.message;
    if (issue.code === 'unrecognized_keys') message = `unknown field(s): ${issue.keys.join(', ')}`;
    return { field: path, message };
  });
  const summary = issues.map((i) => (i.field === '(body)' ? i.message : `${i.field}: ${i.message}`)).join('; ');
  return new AppError('INVALID_INPUT', `invalid input: ${summary}`, { details: { issues } });
}
