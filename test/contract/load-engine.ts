/** Loads an engine folder for tests: its plugin.json as data and its engine.ts module. */
import { readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type {
  EngineContext,
  EngineDefinition,
  EngineManifest,
  EngineQuery,
  EngineResponse,
  HttpRequestSpec,
} from '../../core/engine.js';

export interface LoadedTestEngine {
  dir: string;
  folderName: string;
  /** The manifest as written, before any validation. */
  rawManifest: unknown;
  manifest: EngineManifest;
  engine: EngineDefinition;
}

export function readEngineManifest(engineDir: string): EngineManifest {
  return JSON.parse(readFileSync(join(engineDir, 'plugin.json'), 'utf8')) as EngineManifest;
}

export async function loadEngine(engineDir: string): Promise<LoadedTestEngine> {
  const dir = resolve(engineDir);
  const rawManifest: unknown = JSON.parse(readFileSync(join(dir, 'plugin.json'), 'utf8'));
  const entry = (rawManifest as { entry?: string }).entry ?? 'engine';
  const module = (await import(pathToFileURL(join(dir, `${entry}.ts`)).href)) as { default: EngineDefinition };
  return {
    dir,
    folderName: basename(dir),
    rawManifest,
    manifest: rawManifest as EngineManifest,
    engine: module.default,
  };
}

/** The context the core would build, with test defaults (English, moderate safe search, page 1). */
export function testContext(
  manifest: EngineManifest,
  query: Partial<EngineQuery> & { query: string },
  baseUrl = manifest.baseUrl,
): EngineContext {
  return {
    query: { page: 1, language: 'en', safeSearch: 1, ...query },
    settings: { baseUrl: baseUrl.replace(/\/+$/, ''), apiKey: 'test-key', options: {} },
    manifest,
  };
}

/** A response as the core hands it to parseResponse. */
export function testResponse(
  request: HttpRequestSpec,
  body: string,
  contentType = 'text/html; charset=utf-8',
  status = 200,
): EngineResponse {
  return { status, headers: { 'content-type': contentType }, body, url: request.url, request };
}

export function readFixture(engineDir: string, file: string): string {
  return readFileSync(join(engineDir, 'fixtures', file), 'utf8');
}
