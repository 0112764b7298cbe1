/**
 * Layered configuration, the mechanism only: defaults < a JSON config file
 * (quarry.config.json in the working directory, or QUARRY_CONFIG) <
 * environment variables < overrides (tests, CLI flags). The schema itself —
 * which settings exist — belongs to the composition root (app/config.ts),
 * which composes the sections that services declare.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { z } from 'zod';
import { AppError } from './errors.js';

export type Env = Record<string, string | undefined>;

/** Typed readers of environment variables; a malformed value stops start-up with the variable named. */
export interface EnvReader {
  str(name: string): string | undefined;
  num(name: string): number | undefined;
  bool(name: string): boolean | undefined;
  /** Comma-separated, trimmed, empty entries dropped. */
  list(name: string): string[] | undefined;
}

export function envReader(env: Env): EnvReader {
  return {
    str: (name) => (env[name] === undefined || env[name] === '' ? undefined : env[name]),
    num(name) {
      const raw = env[name];
      if (raw === undefined || raw === '') return undefined;
      const value = Number(raw);
      if (!Number.isFinite(value)) throw new AppError('INVALID_INPUT', `${name} must be a number, got "${raw}"`);
      return value;
    },
    bool(name) {
      const raw = env[name]?.toLowerCase();
      if (raw === undefined || raw === '') return undefined;
      if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
      if (['0', 'false', 'no', 'off'].includes(raw)) return false;
      throw new AppError('INVALID_INPUT', `${name} must be true or false, got "${env[name]}"`);
    },
    list: (name) =>
      env[name] === undefined || env[name] === ''
        ? undefined
        : env[name]!.split(',')
            .map((s) => s.trim())
            .filter(Boolean),
  };
}

/** Drops undefined values and empty objects, so an unset variable never overrides the file. */
export function definedOnly(layer: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(layer)) {
    if (value === undefined) continue;
    if (isPlainObject(value)) {
      const inner = definedOnly(value);
      if (Object.keys(inner).length > 0) out[key] = inner;
    } else out[key] = value;
  }
  return out;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Deep merge where later layers win; arrays are replaced, not concatenated. */
export function mergeLayers(...layers: Record<string, unknown>[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const layer of layers) {
    for (const [key, value] of Object.entries(layer)) {
      const current = out[key];
      out[key] = isPlainObject(current) && isPlainObject(value) ? mergeLayers(current, value) : value;
    }
  }
  return out;
}

function readConfigFile(env: Env, cwd: string): { path: string | null; data: Record<string, unknown> } {
  const explicit = env.QUARRY_CONFIG;
  const path = explicit ? resolve(cwd, explicit) : join(cwd, 'quarry.config.json');
  if (!existsSync(path)) {
    if (explicit) throw new AppError('INVALID_INPUT', `QUARRY_CONFIG points at ${path}, which does not exist`);
    return { path: null, data: {} };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new AppError('INVALID_INPUT', `config file ${path} is not valid JSON: ${(error as Error).message}`);
  }
  if (!isPlainObject(parsed)) throw new AppError('INVALID_INPUT', `config file ${path} must hold a JSON object`);
  const { $schema: _ignored, ...data } = parsed;
  return { path, data };
}

export interface LayeredConfigOptions<S extends z.ZodType> {
  schema: S;
  /** Maps environment variables onto the schema's shape. */
  fromEnv(env: EnvReader, raw: Env): Record<string, unknown>;
  env?: Env;
  cwd?: string;
  overrides?: z.input<S>;
}

/** Reads, layers and validates; a bad value throws INVALID_INPUT naming every offending field. */
export function loadLayeredConfig<S extends z.ZodType>(
  options: LayeredConfigOptions<S>,
): { config: z.output<S>; source: string | null } {
  const env = options.env ?? process.env;
  const file = readConfigFile(env, options.cwd ?? process.cwd());
  const merged = mergeLayers(
    file.data,
    definedOnly(options.fromEnv(envReader(env), env)),
    (options.overrides ?? {}) as Record<string, unknown>,
  );
  const result = options.schema.safeParse(merged);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
    throw new AppError(
      'INVALID_INPUT',
      `invalid configuration${file.path ? ` (${file.path})` : ''}: ${problems.join('; ')}`,
      {
        details: { issues: problems },
      },
    );
  }
  return { config: result.data, source: file.path };
}
