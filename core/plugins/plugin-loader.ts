/**
 * Finds plugin folders (a plugin.json each), validates their manifests and
 * imports their entry modules. Works from source (entry.ts under vitest) and
 * from the built package (entry.js).
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { EngineDefinition, EngineManifest, LoadedEngine } from '../engine.js';
import type { AreaPlugin } from '../plugin.js';
import { ManifestError, readManifest, type AreaManifest } from './manifest-validator.js';

const ENTRY_EXTENSIONS = ['.js', '.mjs', '.ts'];

export interface LoadedArea<Services = unknown> {
  manifest: AreaManifest;
  plugin: AreaPlugin<Services, unknown>;
  dir: string;
}

/** Plugin folders directly under `root` (folders starting with "_" or "." are skipped). */
export function pluginFolders(root: string): string[] {
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .filter((name) => !name.startsWith('_') && !name.startsWith('.'))
    .map((name) => join(root, name))
    .filter((dir) => statSync(dir).isDirectory() && existsSync(join(dir, 'plugin.json')))
    .sort();
}

function entryFile(dir: string, entry: string): string {
  for (const ext of ENTRY_EXTENSIONS) {
    const candidate = join(dir, entry + ext);
    if (existsSync(candidate)) return candidate;
  }
  throw new ManifestError(join(dir, 'plugin.json'), [
    `entry: no module "${entry}" (${ENTRY_EXTENSIONS.join(', ')}) next to the manifest`,
  ]);
}

async function importDefault(file: string, manifestPath: string): Promise<unknown> {
  const module = (await import(pathToFileURL(file).href)) as { default?: unknown };
  if (module.default === undefined) throw new ManifestError(manifestPath, [`entry: ${file} has no default export`]);
  return module.default;
}

export async function loadEngineFolder(dir: string, source: LoadedEngine['source']): Promise<LoadedEngine> {
  const manifestPath = join(resolve(dir), 'plugin.json');
  const manifest = readManifest(manifestPath);
  if (manifest.kind !== 'engine')
    throw new ManifestError(manifestPath, ['kind: must be "engine" for a folder of engines']);
  const folderName = resolve(dir).split(/[\\/]/).pop();
  if (source === 'builtin' && folderName !== manifest.id) {
    throw new ManifestError(manifestPath, [`id: "${manifest.id}" must match its folder name "${folderName}"`]);
  }
  const entry = entryFile(dir, manifest.entry ?? 'engine');
  const definition = (await importDefault(entry, manifestPath)) as EngineDefinition;
  if (typeof definition?.buildRequest !== 'function' || typeof definition?.parseResponse !== 'function') {
    throw new ManifestError(manifestPath, [
      'entry: the default export must be an engine with buildRequest and parseResponse',
    ]);
  }
  return { manifest: manifest as EngineManifest, definition, moduleRef: { module: entry }, dir: resolve(dir), source };
}

/** Services is what the composition root will pass to setup(); the kernel cannot check it. */
export async function loadAreaFolder<Services>(dir: string): Promise<LoadedArea<Services>> {
  const manifestPath = join(resolve(dir), 'plugin.json');
  const manifest = readManifest(manifestPath);
  if (manifest.kind !== 'area') throw new ManifestError(manifestPath, ['kind: must be "area" for an area plugin']);
  const plugin = (await importDefault(entryFile(dir, manifest.entry ?? 'index'), manifestPath)) as AreaPlugin<
    Services,
    unknown
  >;
  if (typeof plugin?.setup !== 'function')
    throw new ManifestError(manifestPath, ['entry: the default export must be an area plugin with setup()']);
  return { manifest, plugin, dir: resolve(dir) };
}
