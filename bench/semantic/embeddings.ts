/**
 * Embedding throughput of the embedded model (quarry/glove-static-100d) on
 * ~5,000 real sentences: through createEmbedder() with 1 and 2 worker
 * processes, beside two baselines from the same run — the same transformers.js
 * pipeline called directly in the main thread, and the hashing embedding the
 * chunker used before. Also reports the longest event-loop stall, which is
 * what the pool exists to avoid.
 *
 * Text: the Chroma chunking corpora (CHUNKING_DATASET_DIR, default
 * ../shared/fixtures/datasets/chunking/chroma-chunking-evaluation), else the
 * repo's own chunking fixtures.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { hashingEmbedding } from '../../services/chunking/hashing-embedding.js';
import { createEmbedder } from '../../services/embeddings/embedding-service.js';
import { EMBEDDED_MODEL_ID } from '../../services/embeddings/model-resolution.js';
import { silentLogger } from '../../core/logger.js';
import { PACKAGE_ROOT } from '../../core/paths.js';

const SENTENCES = 5_000;
const BATCH = 64;
const ROUNDS = 3;
const DATASET_DIR = resolve(
  process.env.CHUNKING_DATASET_DIR ?? '../shared/fixtures/datasets/chunking/chroma-chunking-evaluation',
);

function loadSentences(): { sentences: string[]; source: string } {
  const dir = existsSync(DATASET_DIR) ? DATASET_DIR : join(PACKAGE_ROOT, 'core', 'chunking', 'fixtures');
  const perFile = readdirSync(dir)
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) =>
      readFileSync(join(dir, name), 'utf8')
        .replace(/\s+/g, ' ')
        .split(/(?<=[.!?])\s+(?=[A-Z"'(])/)
        .filter((s) => s.split(' ').length >= 5 && s.length <= 400),
    );
  // Round-robin over the files, so every corpus (finance, medicine, chat, …) is in the sample.
  const sentences: string[] = [];
  for (let i = 0; sentences.length < SENTENCES && perFile.some((list) => i < list.length); i++) {
    for (const list of perFile) if (i < list.length && sentences.length < SENTENCES) sentences.push(list[i]!);
  }
  while (sentences.length < SENTENCES) sentences.push(...sentences.slice(0, SENTENCES - sentences.length));
  return { sentences, source: dir };
}

interface Row {
  name: string;
  ms: number;
  stallMs: number;
}

/**
 * Median of ROUNDS timed runs after one warm-up. The stall is the longest gap between ticks of a
 * 1 ms interval, i.e. how long the event loop could not serve anything else (a synchronous run
 * shows up whole; monitorEventLoopDelay would miss it when the loop never turns during the run).
 */
async function measure(name: string, run: () => Promise<unknown>): Promise<Row> {
  await run();
  const times: number[] = [];
  let last = performance.now();
  let stallMs = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    stallMs = Math.max(stallMs, now - last);
    last = now;
  }, 1);
  for (let round = 0; round < ROUNDS; round++) {
    last = performance.now();
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
    await new Promise((r) => setTimeout(r, 5)); // lets the ticker record the gap a synchronous run left
  }
  clearInterval(ticker);
  times.sort((a, b) => a - b);
  return { name, ms: times[Math.floor(ROUNDS / 2)]!, stallMs };
}

/** The same pipeline the worker runs, called in this thread: what the pool costs or saves. */
async function mainThreadPipeline(): Promise<(texts: string[]) => Promise<unknown>> {
  const { env, pipeline } = await import('@huggingface/transformers');
  env.allowRemoteModels = false;
  env.localModelPath = join(PACKAGE_ROOT, 'models') + '/';
  const load = pipeline as unknown as (
    task: string,
    model: string,
    options: object,
  ) => Promise<(texts: string[], o: object) => Promise<unknown>>;
  const extractor = await load('feature-extraction', EMBEDDED_MODEL_ID, {
    dtype: 'fp32',
    session_options: { intraOpNumThreads: 1 },
  });
  return async (texts) => {
    for (let i = 0; i < texts.length; i += BATCH)
      await extractor(texts.slice(i, i + BATCH), { pooling: 'mean', normalize: true });
  };
}

async function pooled(threads: number, sentences: string[], oneTextCalls = false): Promise<Row> {
  const embedder = await createEmbedder(
    { dataDir: join(tmpdir(), 'quarry-bench'), allowRemote: false, threads, batchSize: BATCH },
    silentLogger(),
  );
  try {
    const label = `pool, ${threads} process${threads > 1 ? 'es' : ''}`;
    if (oneTextCalls)
      return await measure(`${label}, ${sentences.length} one-text calls (coalesced)`, () =>
        Promise.all(sentences.map((s) => embedder.embed([s]))),
      );
    return await measure(`${label}, one ${sentences.length}-text call`, () => embedder.embed(sentences));
  } finally {
    await embedder.close();
  }
}

export async function runEmbeddingBench(): Promise<void> {
  const { sentences, source } = loadSentences();
  const words = sentences.reduce((sum, s) => sum + s.split(' ').length, 0);
  console.log(
    `\nEmbeddings: ${EMBEDDED_MODEL_ID}, ${sentences.length} sentences (${(words / sentences.length).toFixed(1)} words avg) from ${source}`,
  );
  console.log(
    `batch ${BATCH}, median of ${ROUNDS} runs after a warm-up, ${(await import('node:os')).availableParallelism()} CPUs\n`,
  );

  const rows: Row[] = [];
  rows.push(await pooled(1, sentences));
  rows.push(await pooled(2, sentences));
  rows.push(await pooled(1, sentences, true));
  const direct = await mainThreadPipeline();
  const baseline = await measure('baseline: same pipeline in the main thread', () => direct(sentences));
  rows.push(baseline);
  const hashing = hashingEmbedding(512);
  rows.push(await measure('reference: hashing embedding (512 d, main thread)', () => hashing(sentences)));

  const header = ['run', 'ms', 'embeddings/s', 'vs main-thread pipeline', 'max event-loop stall'];
  const lines = rows.map((row) => [
    row.name,
    row.ms.toFixed(0),
    Math.round((sentences.length / row.ms) * 1000).toLocaleString('en-US'),
    `${(baseline.ms / row.ms).toFixed(2)}×`,
    `${row.stallMs.toFixed(0)} ms`,
  ]);
  console.log(`| ${header.join(' | ')} |\n|${header.map(() => '---').join('|')}|`);
  for (const line of lines) console.log(`| ${line.join(' | ')} |`);
}
