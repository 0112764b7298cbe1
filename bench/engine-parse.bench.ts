/**
 * node dist/bench/engine-parse.bench.js — where an engine's answer is cheaper
 * to parse: on the event loop or in the worker pool (the round trip: cloning
 * the answer and the results across threads). Real captures of JSON and HTML
 * engines, cut or repeated to several sizes; the engine service parses a JSON
 * answer inline up to INLINE_JSON_MAX_CHARS and everything else in the pool.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EngineContext, EngineResponse, LoadedEngine } from '../core/engine.js';
import { PACKAGE_ROOT } from '../core/paths.js';
import { loadBuiltinEngines } from '../services/engines/engine-sources.js';
import { parseWith, workerModuleRef } from '../services/engines/engine-parse-task.js';
import { ExtractionPool } from '../services/extract/extraction-pool.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 200);

function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
}

/** A JSON answer of about `chars` characters: the capture's results array repeated or cut. */
function jsonAnswer(capture: string, chars: number, resultsKey: string[]): string {
  const data = JSON.parse(capture) as Record<string, unknown>;
  let holder = data as Record<string, unknown>;
  for (const key of resultsKey.slice(0, -1)) holder = holder[key] as Record<string, unknown>;
  const last = resultsKey.at(-1)!;
  const items = holder[last] as unknown[];
  const out: unknown[] = [];
  holder[last] = out;
  for (let i = 0; JSON.stringify(data).length < chars; i++) out.push(items[i % items.length]);
  if (out.length > 1 && JSON.stringify(data).length > chars * 1.2) out.pop();
  return JSON.stringify(data);
}

async function main(): Promise<void> {
  const engines = new Map((await loadBuiltinEngines()).map((e) => [e.manifest.id, e]));
  const pool = new ExtractionPool({ threads: 1, maxQueue: 100 });
  const cases: { engine: LoadedEngine; body: string }[] = [];
  const wiki = readFileSync(join(PACKAGE_ROOT, 'engines/wikipedia/fixtures/full_text_search_results.json'), 'utf8');
  for (const chars of [2_000, 8_000, 16_000, 32_000, 64_000, 256_000])
    cases.push({ engine: engines.get('wikipedia')!, body: jsonAnswer(wiki, chars, ['query', 'pages']) });
  const brave = readFileSync(join(PACKAGE_ROOT, 'engines/brave/fixtures/web-search-hello-world.json'), 'utf8');
  cases.push({ engine: engines.get('brave')!, body: brave });
  for (const file of ['no-results-nojs.html', 'nojs.html'])
    cases.push({
      engine: engines.get('google')!,
      body: readFileSync(join(PACKAGE_ROOT, 'engines/google/fixtures', file), 'utf8'),
    });

  console.log('engine      chars    inline p50 ms   pool p50 ms');
  for (const { engine, body } of cases) {
    const ctx: EngineContext = {
      query: { query: 'hello world', page: 1, language: 'en', safeSearch: 1 },
      settings: { baseUrl: engine.manifest.baseUrl, options: {} },
      manifest: engine.manifest,
    };
    const request = engine.definition.buildRequest(ctx);
    const response: EngineResponse = {
      status: 200,
      headers: { 'content-type': 'application/json' },
      body,
      url: request.url,
      request,
    };
    const { body: _text, ...head } = response;
    const task = {
      kind: 'engine' as const,
      engine: workerModuleRef(engine.moduleRef),
      phase: 'results' as const,
      response: { ...head, bytes: Buffer.from(body) },
      ctx,
    };
    const inline: number[] = [];
    const pooled: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      let started = performance.now();
      try {
        parseWith(engine.definition, { phase: 'results', response, ctx });
      } catch {
        // a capture the parser refuses (block page): its cost counts all the same
      }
      inline.push(performance.now() - started);
      started = performance.now();
      await pool.engine(task).catch(() => undefined);
      pooled.push(performance.now() - started);
    }
    console.log(
      `${engine.manifest.id.padEnd(10)} ${String(body.length).padStart(7)}   ${median(inline).toFixed(3).padStart(12)}   ${median(pooled).toFixed(3).padStart(11)}`,
    );
  }
  await pool.close();
}

await main();
