/**
 * An engine's answer parsed off the event loop. Engines are pure modules, so
 * a thread of the extraction worker pool imports the same definition by its
 * module path and runs its parser there; an engine's typed failure (CAPTCHA,
 * rate limit, …) comes back as a value, because structured cloning across the
 * thread boundary drops an error's class and its suspension time.
 */
import { isAbsolute, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  EngineError,
  type EngineContext,
  type EngineDefinition,
  type EngineModuleRef,
  type EngineResponse,
  type EngineStep,
} from '../../core/engine.js';
import { AppError, type ErrorCode } from '../../core/errors.js';
import { decodeBody } from '../../core/http/response-body.js';
import { PACKAGE_ROOT } from '../../core/paths.js';

export interface EngineParseTask {
  kind: 'engine';
  engine: EngineModuleRef;
  /** The search answer (`parseResponse`, needs ctx) or an autocomplete answer. */
  phase: 'results' | 'autocomplete';
  response: EncodedEngineResponse;
  ctx?: EngineContext;
}

/**
 * An engine's answer as it crosses to a worker thread: its bytes, decoded
 * there (charset from Content-Type or the page's <meta>), so that the event
 * loop neither decodes a page nor copies its text.
 */
export interface EncodedEngineResponse extends Omit<EngineResponse, 'body'> {
  bytes: Uint8Array;
}

export type EngineParseValue = EngineStep | string[];

export type EngineParseOutcome =
  | { parsed: EngineParseValue }
  | { engineFailure: { code: ErrorCode; message: string; suspendSeconds: number } };

/** An engine failure raised in a worker thread, rebuilt on this side with its suspension time. */
export class WorkerEngineError extends EngineError {
  constructor(
    code: ErrorCode,
    message: string,
    readonly suspendSeconds: number,
  ) {
    super(code, message);
  }
}

/**
 * The module a worker thread can import: worker threads run plain Node, so a
 * TypeScript source inside the package (tests run from source) maps to its
 * build in dist/; engines outside the package ship JavaScript.
 */
export function workerModuleRef(ref: EngineModuleRef): EngineModuleRef {
  if (!ref.module.endsWith('.ts')) return ref;
  const inside = relative(PACKAGE_ROOT, ref.module);
  if (inside.startsWith('..') || isAbsolute(inside)) return ref;
  return { ...ref, module: `${PACKAGE_ROOT}/dist/${inside.replace(/\.ts$/, '.js')}` };
}

/** The answer as this side sees it: the parsed value, or the engine's typed failure thrown. */
export function engineParseResult(outcome: EngineParseOutcome): EngineParseValue {
  if ('parsed' in outcome) return outcome.parsed;
  const { code, message, suspendSeconds } = outcome.engineFailure;
  throw new WorkerEngineError(code, message, suspendSeconds);
}

/** Definitions a worker thread has imported, by module (and spec, for config engines). */
const definitions = new Map<string, Promise<EngineDefinition>>();

async function importDefinition(ref: EngineModuleRef): Promise<EngineDefinition> {
  const module = (await import(pathToFileURL(ref.module).href)) as Record<string, unknown>;
  const exported = ref.factory ? module[ref.factory] : module.default;
  if (ref.factory) {
    if (typeof exported !== 'function')
      throw new AppError('INTERNAL', `${ref.module} exports no function "${ref.factory}"`);
    return (exported as (spec: unknown) => EngineDefinition)(ref.spec);
  }
  return exported as EngineDefinition;
}

function definitionOf(ref: EngineModuleRef): Promise<EngineDefinition> {
  const key = ref.factory ? `${ref.module}#${ref.factory}#${JSON.stringify(ref.spec)}` : ref.module;
  let definition = definitions.get(key);
  if (!definition) {
    definition = importDefinition(ref);
    definition.catch(() => definitions.delete(key));
    definitions.set(key, definition);
  }
  return definition;
}

/** Runs in a worker thread: the engine's own parser over its answer. Other errors go back to the pool as errors. */
export async function parseEngineAnswer(task: EngineParseTask): Promise<EngineParseOutcome> {
  const definition = await definitionOf(task.engine);
  const { bytes, ...response } = task.response;
  try {
    return {
      parsed: parseWith(definition, {
        phase: task.phase,
        ctx: task.ctx,
        response: { ...response, body: decodeBody(bytes, response.headers['content-type']) },
      }),
    };
  } catch (error) {
    if (!(error instanceof EngineError)) throw error;
    const suspendSeconds = (error as EngineError & { suspendSeconds?: number }).suspendSeconds ?? 0;
    return { engineFailure: { code: error.code, message: error.message, suspendSeconds } };
  }
}

/** The parse itself, the same on either side of the thread boundary. */
export function parseWith(
  definition: EngineDefinition,
  task: { phase: EngineParseTask['phase']; response: EngineResponse; ctx?: EngineContext | undefined },
): EngineParseValue {
  if (task.phase === 'autocomplete') {
    if (!definition.autocomplete) throw new AppError('INVALID_INPUT', 'the engine has no autocomplete');
    return definition.autocomplete.parseResponse(task.response);
  }
  if (!task.ctx) throw new AppError('INTERNAL', 'an engine answer is parsed with its context');
  return definition.parseResponse(task.response, task.ctx);
}
