/**
 * Validates plugin.json files against plugin.schema.json with Ajv. Errors
 * name the plugin and the field, so a bad manifest stops start-up clearly.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { EngineManifest } from '../engine.js';
import { PACKAGE_ROOT } from '../paths.js';

export interface AreaManifest {
  id: string;
  kind: 'area';
  version: string;
  core: string;
  name: string;
  description?: string;
  entry?: string;
  capabilities: string[];
  uses: string[];
}

export type PluginManifest = AreaManifest | (EngineManifest & { entry?: string });

export class ManifestError extends Error {
  constructor(
    readonly pluginPath: string,
    readonly problems: string[],
  ) {
    super(`invalid plugin manifest ${pluginPath}: ${problems.join('; ')}`);
    this.name = 'ManifestError';
  }
}

let compiled: ValidateFunction | null = null;

function validator(): ValidateFunction {
  if (!compiled) {
    const schema = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'plugin.schema.json'), 'utf8')) as object;
    compiled = new Ajv({ allErrors: true, strict: false }).compile(schema);
  }
  return compiled;
}

function describe(error: ErrorObject): string {
  const field = error.instancePath ? error.instancePath.slice(1).replace(/\//g, '.') : '(manifest)';
  if (error.keyword === 'additionalProperties')
    return `${field}: unknown field "${String(error.params.additionalProperty)}"`;
  if (error.keyword === 'required')
    return `${field === '(manifest)' ? '' : `${field}.`}${String(error.params.missingProperty)}: is required`;
  if (error.keyword === 'enum') return `${field}: must be one of ${JSON.stringify(error.params.allowedValues)}`;
  return `${field}: ${error.message ?? error.keyword}`;
}

/** Parses and validates a manifest; `where` names it in errors (a path or plugin id). */
export function validateManifest(raw: unknown, where: string): PluginManifest {
  const validate = validator();
  if (validate(raw)) return raw as PluginManifest;
  const problems = (validate.errors ?? []).filter((e) => e.keyword !== 'if' && e.keyword !== 'allOf').map(describe);
  throw new ManifestError(where, [...new Set(problems)]);
}

export function readManifest(path: string): PluginManifest {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new ManifestError(path, [`not valid JSON: ${(error as Error).message}`]);
  }
  return validateManifest(raw, path);
}
