/**
 * Where engines come from: the built-in folders, third-party folders and
 * npm packages named in the config, and engines declared in the config.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { loadConfigEngine, type ConfigEngine } from './config-engines.js';
import type { LoadedEngine } from '../../core/engine.js';
import { CODE_ROOT } from '../../core/paths.js';
import { loadEngineFolder, pluginFolders } from '../../core/plugins/plugin-loader.js';

export function loadBuiltinEngines(): Promise<LoadedEngine[]> {
  return Promise.all(pluginFolders(join(CODE_ROOT, 'engines')).map((dir) => loadEngineFolder(dir, 'builtin')));
}

/** A folder holding one engine (plugin.json) or several engine folders. */
async function loadEngineDirectory(dir: string, source: LoadedEngine['source']): Promise<LoadedEngine[]> {
  if (existsSync(join(dir, 'plugin.json'))) return [await loadEngineFolder(dir, source)];
  const nested = existsSync(join(dir, 'engines')) ? join(dir, 'engines') : dir;
  return Promise.all(pluginFolders(nested).map((folder) => loadEngineFolder(folder, source)));
}

/** Built-in engines, then third-party folders and packages, then engines declared in config. */
/** The config settings that say where engines come from. */
export interface EngineSourcesConfig {
  engineDirs: string[];
  enginePackages: string[];
  customEngines: ConfigEngine[];
}

export async function loadAllEngines(
  config: EngineSourcesConfig,
  cwd = process.cwd(),
  extraDirs: string[] = [],
): Promise<LoadedEngine[]> {
  const requireFromCwd = createRequire(join(resolve(cwd), 'noop.js'));
  const groups = await Promise.all([
    loadBuiltinEngines(),
    ...[...config.engineDirs, ...extraDirs].map((dir) => loadEngineDirectory(resolve(cwd, dir), 'directory')),
    ...config.enginePackages.map((name) =>
      loadEngineDirectory(dirname(requireFromCwd.resolve(`${name}/package.json`)), 'package'),
    ),
  ]);
  return [...groups.flat(), ...config.customEngines.map(loadConfigEngine)];
}
