/** quarry engines / quarry engine parse: the catalogue and a parser runner for engine authors. */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadAllEngines } from '../../services/engines/engine-sources.js';
import { loadConfig } from '../../app/config.js';
import type { EngineContext, EngineResponse } from '../../core/engine.js';
import { EngineHealth } from '../../services/engines/engine-health.js';
import { EngineService } from '../../services/engines/engine-service.js';
import { toAppError } from '../../core/errors.js';
import { silentLogger } from '../../core/logger.js';
import { CODE_ROOT, PACKAGE_ROOT } from '../../core/paths.js';
import { loadEngineFolder } from '../../core/plugins/plugin-loader.js';
import { scaffoldEngine } from './engine-scaffold.js';

/** Engines without network access; `only` loads just that built-in engine when it exists (faster). */
async function offlineEngineService(only?: string): Promise<EngineService> {
  const { config } = loadConfig();
  const builtinDir = only ? join(CODE_ROOT, 'engines', only) : null;
  const engines =
    builtinDir && /^[a-z][a-z0-9_]*$/.test(only!) && existsSync(join(builtinDir, 'plugin.json'))
      ? [await loadEngineFolder(builtinDir, 'builtin')]
      : await loadAllEngines(config);
  const noNetwork = {
    fetch: () => Promise.reject(new Error('the CLI catalogue does not fetch')),
  };
  const noAnswers = { engine: () => Promise.reject(new Error('the CLI catalogue parses no answers')) };
  return new EngineService(engines, config, noNetwork, noAnswers, new EngineHealth(), silentLogger());
}

export async function runEnginesList(options: { json: boolean }): Promise<number> {
  const service = await offlineEngineService();
  const ids = service.ids();
  const entries = Object.fromEntries(ids.map((id) => [id, service.catalogueEntry(id)]));
  if (options.json) {
    const enabled = ids.filter((id) => entries[id]!.enabled).length;
    process.stdout.write(
      `${JSON.stringify({ engines: entries, total_engines: ids.length, enabled_engines: enabled }, null, 2)}\n`,
    );
    return 0;
  }
  const rows = ids.map((id) => {
    const e = entries[id]!;
    const flags = [
      e.paging_support ? 'paging' : '',
      e.time_range_support ? 'time' : '',
      e.safe_search_support ? 'safe' : '',
      e.autocomplete_support ? 'autocomplete' : '',
    ]
      .filter(Boolean)
      .join(',');
    return [
      id,
      e.categories.join(','),
      e.enabled ? 'enabled' : `disabled (${e.disabled_reason})`,
      flags,
      e.about.verifiedOn,
    ];
  });
  const widths = [0, 1, 2, 3].map((i) => Math.max(...rows.map((r) => r[i]!.length), 6));
  for (const row of [['ENGINE', 'CATEGORIES', 'STATE', 'SUPPORTS', 'VERIFIED'], ...rows]) {
    process.stdout.write(`${row.map((cell, i) => (i < 4 ? cell.padEnd(widths[i]!) : cell)).join('  ')}\n`);
  }
  process.stdout.write(`\n${ids.length} engines\n`);
  return 0;
}

function guessContentType(file: string, body: string): string {
  if (/\.json(\.gz)?$/i.test(file) || /^\s*[[{]/.test(body)) return 'application/json';
  if (/\.(xml|atom)(\.gz)?$/i.test(file) || /^\s*<\?xml/.test(body)) return 'application/xml';
  return 'text/html; charset=utf-8';
}

export async function runEngineParse(id: string, file: string, query = 'test'): Promise<number> {
  const service = await offlineEngineService(id);
  if (!service.has(id)) {
    process.stderr.write(`quarry engine parse: unknown engine "${id}". Known: ${service.ids().join(', ')}\n`);
    return 2;
  }
  const engine = service.get(id);
  const raw = readFileSync(file);
  const body = (file.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8');
  const ctx: EngineContext = {
    query: { query, page: 1, language: 'en', safeSearch: 1 },
    settings: { ...service.settings(id), apiKey: service.settings(id).apiKey ?? 'cli' },
    manifest: engine.manifest,
  };
  const request = engine.definition.buildRequest(ctx);
  const response: EngineResponse = {
    status: 200,
    headers: { 'content-type': guessContentType(file, body) },
    body,
    url: request.url,
    request,
  };
  try {
    const step = engine.definition.parseResponse(response, ctx);
    if ('next' in step) {
      process.stderr.write(
        `engine "${id}" needs a further request for this response (multi-step engine): ${step.next.method} ${step.next.url}\n`,
      );
      process.stdout.write('[]\n');
      return 3;
    }
    process.stdout.write(`${JSON.stringify(step.results, null, 2)}\n`);
    return 0;
  } catch (error) {
    const appError = toAppError(error);
    process.stderr.write(`engine "${id}" failed to parse ${file}: ${appError.code}: ${appError.message}\n`);
    return 1;
  }
}

export async function runEngineNew(id: string, dir?: string): Promise<number> {
  const cwd = process.cwd();
  const target =
    dir ??
    (existsSync(join(cwd, 'plugin.schema.json')) && existsSync(join(cwd, 'engines')) ? join(cwd, 'engines') : cwd);
  try {
    const created = scaffoldEngine(id, target, PACKAGE_ROOT);
    process.stdout.write(
      `created ${created}\n  plugin.json  engine.ts  fixtures/search.json  engine.test.ts\nnext: edit engine.ts, replace the fixture with a real capture, run npm test\n`,
    );
    return 0;
  } catch (error) {
    process.stderr.write(`quarry engine new: ${(error as Error).message}\n`);
    return 2;
  }
}

export async function runEngineTry(id: string, query: string): Promise<number> {
  const { createQuarry } = await import('../../app/create-quarry.js');
  const app = await createQuarry({ overrides: { logLevel: 'warn' } });
  try {
    if (!app.engines.has(id)) {
      process.stderr.write(`quarry engine try: unknown engine "${id}". Known: ${app.engines.ids().join(', ')}\n`);
      return 2;
    }
    const results = await app.engines.search(id, { query, page: 1, language: 'en', safeSearch: 1 });
    process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
    return 0;
  } catch (error) {
    const appError = toAppError(error);
    process.stderr.write(`engine "${id}" failed: ${appError.code}: ${appError.message}\n`);
    return 1;
  } finally {
    await app.close();
  }
}
