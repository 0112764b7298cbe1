/**
 * A caller's JSON Schema compiled (Ajv) and a value checked against it, in the
 * extraction worker pool: the schema comes from a request and the value from a
 * language model that read an untrusted page, so either can be built to stall
 * a thread (a `pattern` that backtracks, a schema that takes long to compile).
 * Both steps run inside a vm context with a time limit: V8 interrupts the
 * validator there, the thread survives, and the caller gets a 400 that names
 * the schema as the problem (details.reason SCHEMA_TOO_SLOW).
 */
import vm from 'node:vm';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { AppError } from '../../core/errors.js';

/** Longest one compile, or one validation, may take. */
export const SCHEMA_TIME_LIMIT_MS = 1000;
/** A schema's size as JSON text; far above any hand-written schema, well below what is slow to compile. */
export const MAX_SCHEMA_CHARS = 100_000;
/** Compiled schemas a thread keeps, so the retry and the next page of a crawl do not compile again. */
const KEPT_SCHEMAS = 32;
const MAX_ERRORS = 5;

export interface SchemaProblem {
  instancePath: string;
  message: string;
}

export interface JsonSchemaCheck {
  schema: Record<string, unknown>;
  /** Absent: only whether the schema compiles (a request checked before any work starts). */
  value?: { json: unknown };
  /** Names the schema in messages ("formats: json schema"). */
  field: string;
}

export interface JsonSchemaVerdict {
  valid: boolean;
  /** The first few complaints when not valid. */
  problems: SchemaProblem[];
}

const compiled = new Map<string, ValidateFunction>();

export function checkJsonSchema(task: JsonSchemaCheck, timeLimitMs = SCHEMA_TIME_LIMIT_MS): JsonSchemaVerdict {
  const text = JSON.stringify(task.schema);
  if (text.length > MAX_SCHEMA_CHARS)
    throw new AppError(
      'INVALID_INPUT',
      `${task.field}: ${text.length} characters as JSON, more than the ${MAX_SCHEMA_CHARS} accepted`,
      { details: { reason: 'SCHEMA_TOO_LARGE', maxChars: MAX_SCHEMA_CHARS } },
    );
  const validate = compiledSchema(text, task, timeLimitMs);
  if (!task.value) return { valid: true, problems: [] };
  const valid = timed(task.field, 'checking a value against it', timeLimitMs, () => validate(task.value!.json));
  return { valid: valid === true, problems: valid ? [] : problemsOf(validate.errors) };
}

function compiledSchema(text: string, task: JsonSchemaCheck, timeLimitMs: number): ValidateFunction {
  const kept = compiled.get(text);
  if (kept) {
    // Most recently used last, so the oldest is the first key.
    compiled.delete(text);
    compiled.set(text, kept);
    return kept;
  }
  // One Ajv per schema: an Ajv instance keeps every schema object it compiled, and each task's schema is a new one.
  const validate = timed(task.field, 'compiling it', timeLimitMs, () => {
    try {
      return new Ajv({ allErrors: true, strict: false }).compile(task.schema);
    } catch (error) {
      throw new AppError('INVALID_INPUT', `${task.field}: not a usable JSON Schema: ${(error as Error).message}`, {
        details: { reason: 'SCHEMA_INVALID' },
      });
    }
  });
  compiled.set(text, validate);
  if (compiled.size > KEPT_SCHEMAS) compiled.delete(compiled.keys().next().value!);
  return validate;
}

/** Runs work where V8 can interrupt it: a vm script's timeout stops whatever JavaScript the script calls. */
function timed<T>(field: string, step: string, timeLimitMs: number, work: () => T): T {
  const context = vm.createContext({ work });
  try {
    return vm.runInContext('work()', context, { timeout: timeLimitMs }) as T;
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT')
      throw new AppError(
        'INVALID_INPUT',
        `${field}: ${step} took longer than ${timeLimitMs} ms and was stopped; ` +
          'simplify the schema (a `pattern` that backtracks, such as (a+)+, is the usual cause)',
        { details: { reason: 'SCHEMA_TOO_SLOW', timeLimitMs } },
      );
    throw error;
  }
}

/** Never empty: a value that does not match always comes with at least one complaint. */
function problemsOf(errors: ErrorObject[] | null | undefined): SchemaProblem[] {
  const problems = (errors ?? []).slice(0, MAX_ERRORS).map((error) => ({
    instancePath: error.instancePath,
    message: error.message ?? 'is invalid',
  }));
  return problems.length > 0 ? problems : [{ instancePath: '', message: 'does not match the schema' }];
}
