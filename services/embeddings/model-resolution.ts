/**
 * Which models to try, in order: the configured local folder, the configured
 * hub id from the cache, the hub itself (when allowed), then the embedded
 * offline model. Only file checks happen here; the worker does the loading and
 * falls through the list when a candidate fails.
 */
import { existsSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { AppError } from '../../core/errors.js';
import { PACKAGE_ROOT } from '../../core/paths.js';
import type { ModelSpec } from './worker-protocol.js';

export const EMBEDDED_MODEL_ID = 'quarry/glove-static-100d';
export const DEFAULT_REMOTE_HOST = 'https://huggingface.co/';

export interface ModelOptions {
  /** Hub id ("Xenova/all-MiniLM-L6-v2") or a local folder; null uses the embedded model. */
  model: string | null;
  allowRemote: boolean;
  remoteHost: string;
  /** Download cache; the service defaults it to <dataDir>/models. */
  cacheDir: string;
  dataDir: string;
}

export interface ModelPlan {
  candidates: ModelSpec[];
  /** How many leading candidates come from the configured model (the rest are embedded). */
  configuredCount: number;
  /** Why the configured model offered no candidate at all (e.g. not cached, downloads off). */
  skipped: string | null;
}

/** Folders that may hold quarry/glove-static-100d: the package's own, then the data directory's. */
export function embeddedModelRoots(dataDir: string): string[] {
  return [join(PACKAGE_ROOT, 'models'), join(dataDir, 'models')];
}

const hasModelFiles = (dir: string): boolean =>
  ['config.json', 'tokenizer.json', join('onnx', 'model.onnx')].every((file) => existsSync(join(dir, file)));

/** A path is meant when it looks like one, or names an existing folder (hub ids never start with . / ~). */
function asLocalPath(model: string): string | null {
  if (isAbsolute(model) || /^(\.{1,2}[\\/]|~)/.test(model))
    return resolve(model.replace(/^~(?=[\\/])/, process.env.HOME ?? '~'));
  const relative = resolve(model);
  return existsSync(relative) && statSync(relative).isDirectory() ? relative : null;
}

/** The configured model's ways to load: its folder, or the cache and then the hub (when allowed). */
export function configuredCandidates(
  model: string,
  options: ModelOptions,
): { specs: ModelSpec[]; skipped: string | null } {
  const base = { id: model, remoteHost: options.remoteHost, allowRemote: false, cacheDir: null };
  const folder = asLocalPath(model);
  if (folder) {
    if (!hasModelFiles(folder))
      return { specs: [], skipped: `${folder} holds no config.json, tokenizer.json and onnx/model.onnx` };
    return { specs: [{ ...base, model: folder, source: 'local-path', localModelPath: null }], skipped: null };
  }
  const specs: ModelSpec[] = [];
  // The transformers.js file cache stores <cacheDir>/<id>/<file>, i.e. the local-model layout.
  if (hasModelFiles(join(options.cacheDir, model)))
    specs.push({ ...base, model, source: 'cache', localModelPath: options.cacheDir });
  if (options.allowRemote)
    specs.push({ ...base, model, source: 'hub', localModelPath: null, allowRemote: true, cacheDir: options.cacheDir });
  const skipped = specs.length
    ? null
    : `${model} is not in the cache (${options.cacheDir}) and downloads are off (allowRemote false)`;
  return { specs, skipped };
}

export function planModels(options: ModelOptions): ModelPlan {
  const configured = options.model ? configuredCandidates(options.model, options) : { specs: [], skipped: null };
  const embedded: ModelSpec[] = embeddedModelRoots(options.dataDir)
    .filter((root) => hasModelFiles(join(root, EMBEDDED_MODEL_ID)))
    .map((root) => ({
      model: EMBEDDED_MODEL_ID,
      id: EMBEDDED_MODEL_ID,
      source: 'embedded',
      localModelPath: root + '/',
      allowRemote: false,
      remoteHost: options.remoteHost,
      cacheDir: null,
    }));
  const candidates = [...configured.specs, ...embedded];
  if (candidates.length === 0) throw missingModelError(configured.skipped);
  return { candidates, configuredCount: configured.specs.length, skipped: configured.skipped };
}

export function missingModelError(detail: string | null): AppError {
  const why = detail ? `${detail}; ` : '';
  return new AppError(
    'UNAVAILABLE',
    `${why}the embedded embedding model ${EMBEDDED_MODEL_ID} is missing: run "node scripts/build-embedded-model.mjs" in the Quarry package folder`,
  );
}
