/**
 * Which recorded engine response the sandbox web plays for each engine in
 * the end-to-end tests and the search benchmark. The files live in each
 * engine's own fixtures folder (with their provenance).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../core/paths.js';
import type { EngineRecording, SandboxWeb } from './sandbox/sandbox-web.js';

const fixture = (engine: string, file: string): string => join(PACKAGE_ROOT, 'engines', engine, 'fixtures', file);

export const RECORDINGS: Record<string, EngineRecording> = {
  duckduckgo: { file: fixture('duckduckgo', 'hello.html'), contentType: 'text/html; charset=utf-8' },
  bing: { file: fixture('bing', 'hello.html'), contentType: 'text/html; charset=utf-8' },
  wikipedia: { file: fixture('wikipedia', 'full_text_search_results.json'), contentType: 'application/json' },
  google: { file: fixture('google', 'nojs.html'), contentType: 'text/html; charset=utf-8' },
};

/** Three engines that need no key, played at fixed latencies by the benchmark. */
export const BENCH_ENGINES = ['duckduckgo', 'bing', 'wikipedia'];

export function playRecording(
  web: SandboxWeb,
  engine: string,
  opts: { delayMs?: number; rewriteLinks?: boolean } = {},
): void {
  const recording = RECORDINGS[engine];
  if (!recording) throw new Error(`no recording for engine ${engine}`);
  web.playEngine(engine, recording, opts);
}

export function playDefaultEngines(web: SandboxWeb): void {
  for (const engine of Object.keys(RECORDINGS)) playRecording(web, engine);
}

/** A SearXNG JSON answer listing the given results, written to a temporary file. */
export function searxngAnswer(
  dir: string,
  name: string,
  query: string,
  results: Array<{ url: string; title: string; content: string }>,
): EngineRecording {
  const file = join(dir, `${name}.json`);
  writeFileSync(
    file,
    JSON.stringify({
      query,
      number_of_results: results.length,
      results: results.map((r, i) => ({
        ...r,
        engine: 'sandbox',
        engines: ['sandbox'],
        score: 1 / (i + 1),
        category: 'general',
      })),
      answers: [],
      corrections: [],
      infoboxes: [],
      suggestions: [],
      unresponsive_engines: [],
    }),
  );
  return { file, contentType: 'application/json' };
}
