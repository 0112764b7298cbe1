/**
 * The LanceDB page index at 100,000 chunks: bulk insert, index build time,
 * and 200 queries' latency (p50/p95) and recall@10 against exact search — a
 * brute-force dot product in JS over every vector, in the same run. Rows:
 * exact JS, LanceDB flat (before the ANN index exists), LanceDB with the
 * default IVF_FLAT index (BENCH_INDEX_KINDS=ivf_flat,ivf_hnsw_sq adds the
 * quantised HNSW index, about a minute more); plus full-text and hybrid latency.
 *
 * Text: 48-word windows over the Chroma chunking corpora and the CLIMATE-FEVER
 * evidence sentences (../shared/fixtures/datasets), queries are CLIMATE-FEVER
 * claims. Vectors: the embedder passed in, else the embedding service's model,
 * else hashingEmbedding(100) — the output says which.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { hashingEmbedding } from '../../services/chunking/hashing-embedding.js';
import { silentLogger } from '../../core/logger.js';
import { PACKAGE_ROOT } from '../../core/paths.js';
import { openPageIndex, type AnnIndexKind } from '../../services/vectors/lance-page-index.js';
import type { IndexedPage, PageIndex } from '../../services/vectors/types.js';

type Embed = (texts: string[]) => Promise<Float32Array[]>;

const CHUNKS = 100_000;
const QUERIES = 200;
const CHUNKS_PER_PAGE = 10;
const WINDOW_WORDS = 48;
const K = 10;
const DATASETS = resolve(process.env.BENCH_DATASETS_DIR ?? '../shared/fixtures/datasets');

function corpus(): { words: string[]; claims: string[]; source: string } {
  const chunkingDir = join(DATASETS, 'chunking', 'chroma-chunking-evaluation');
  const fever = join(DATASETS, 'claims', 'climate-fever', 'climate-fever.jsonl');
  const texts: string[] = [];
  const claims: string[] = [];
  const dir = existsSync(chunkingDir) ? chunkingDir : join(PACKAGE_ROOT, 'core', 'chunking', 'fixtures');
  for (const name of readdirSync(dir)
    .filter((f) => f.endsWith('.md'))
    .sort())
    texts.push(readFileSync(join(dir, name), 'utf8'));
  if (existsSync(fever)) {
    for (const line of readFileSync(fever, 'utf8').split('\n').filter(Boolean)) {
      const record = JSON.parse(line) as { claim: string; evidences: Array<{ evidence: string }> };
      claims.push(record.claim);
      for (const evidence of record.evidences) texts.push(evidence.evidence);
    }
  }
  const words = texts.join(' ').split(/\s+/).filter(Boolean);
  return { words, claims, source: existsSync(fever) ? `${dir} + ${fever}` : dir };
}

/** CHUNKS overlapping windows spread evenly over the corpus (distinct while it has the words). */
function windows(words: string[]): string[] {
  const starts = Math.max(1, words.length - WINDOW_WORDS);
  const stride = Math.max(1, Math.floor(starts / CHUNKS));
  return Array.from({ length: CHUNKS }, (_, i) =>
    words.slice((i * stride) % starts, ((i * stride) % starts) + WINDOW_WORDS).join(' '),
  );
}

async function chooseEmbedder(given?: Embed): Promise<{ embed: Embed; label: string; close: () => Promise<void> }> {
  if (given) return { embed: given, label: 'the embedder passed in', close: async () => {} };
  try {
    const { createEmbedder } = await import('../../services/embeddings/embedding-service.js');
    const embedder = await createEmbedder(
      { dataDir: join(tmpdir(), 'quarry-bench'), allowRemote: false, threads: 2, batchSize: 256 },
      silentLogger(),
    );
    const info = embedder.info();
    return {
      embed: (texts) => embedder.embed(texts),
      label: `${info.id} (${info.source}, ${info.dimensions}-d)`,
      close: () => embedder.close(),
    };
  } catch (error) {
    const hashing = hashingEmbedding(100);
    const embed: Embed = async (texts) => (await hashing(texts)).map((v) => Float32Array.from(v));
    return {
      embed,
      label: `hashingEmbedding(100) — embedding service unavailable: ${(error as Error).message.slice(0, 120)}`,
      close: async () => {},
    };
  }
}

async function embedAll(embed: Embed, texts: string[]): Promise<Float32Array[]> {
  const out: Float32Array[] = [];
  for (let i = 0; i < texts.length; i += 2048) out.push(...(await embed(texts.slice(i, i + 2048))));
  return out;
}

function unit(v: Float32Array): Float32Array {
  let norm = 0;
  for (const x of v) norm += x * x;
  norm = Math.sqrt(norm) || 1;
  return v.map((x) => x / norm);
}

/** Exact top-K by dot product over unit vectors (= cosine); also returns the K-th score for ties. */
function exactTopK(
  matrix: Float32Array,
  dims: number,
  query: Float32Array,
): { ids: number[]; kth: number; scores: Float32Array } {
  const n = matrix.length / dims;
  const scores = new Float32Array(n);
  const ids: number[] = [];
  for (let row = 0; row < n; row++) {
    let dot = 0;
    const base = row * dims;
    for (let d = 0; d < dims; d++) dot += matrix[base + d]! * query[d]!;
    scores[row] = dot;
    if (ids.length < K || dot > scores[ids[K - 1]!]!) {
      // Insertion into the sorted top-K list: K is tiny, so this beats a heap.
      let at = Math.min(ids.length, K - 1);
      while (at > 0 && scores[ids[at - 1]!]! < dot) {
        ids[at] = ids[at - 1]!;
        at--;
      }
      ids[at] = row;
    }
  }
  return { ids, kth: scores[ids[K - 1]!]!, scores };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;

interface Row {
  name: string;
  p50: number;
  p95: number;
  recall: number | null;
}

async function timeQueries(
  name: string,
  run: (i: number) => Promise<number[] | null>,
  exact: Array<ReturnType<typeof exactTopK>> | null,
): Promise<Row> {
  const latencies: number[] = [];
  let found = 0;
  for (let i = 0; i < QUERIES; i++) {
    const started = performance.now();
    const ids = await run(i);
    latencies.push(performance.now() - started);
    // Tie-aware: a returned chunk counts if it scores at least the exact 10th (duplicates tie).
    if (ids && exact) found += ids.filter((id) => exact[i]!.scores[id]! >= exact[i]!.kth - 1e-6).length;
  }
  latencies.sort((a, b) => a - b);
  return {
    name,
    p50: percentile(latencies, 0.5),
    p95: percentile(latencies, 0.95),
    recall: exact ? found / (QUERIES * K) : null,
  };
}

const idOf = (url: string, chunkIndex: number) =>
  Number(url.slice(url.lastIndexOf('/') + 1)) * CHUNKS_PER_PAGE + chunkIndex;

export async function runVectorIndexBench(options: { embed?: Embed } = {}): Promise<void> {
  const started = performance.now();
  const { words, claims, source } = corpus();
  const texts = windows(words);
  const queryTexts = Array.from(
    { length: QUERIES },
    (_, i) =>
      claims[(i * 37) % Math.max(1, claims.length)] ?? texts[(i * 499) % CHUNKS]!.split(' ').slice(0, 12).join(' '),
  );
  const embedder = await chooseEmbedder(options.embed);
  const embedStarted = performance.now();
  const vectors = await embedAll(embedder.embed, texts);
  const queryVectors = await embedAll(embedder.embed, queryTexts);
  await embedder.close();
  const dims = vectors[0]!.length;
  console.log(
    `\nPage index (LanceDB) — ${CHUNKS.toLocaleString('en')} chunks × ${dims}-d, ${QUERIES} queries, top ${K}`,
  );
  console.log(`text:    ${source} (${words.length.toLocaleString('en')} words, ${WINDOW_WORDS}-word windows)`);
  console.log(`vectors: ${embedder.label}, embedded in ${((performance.now() - embedStarted) / 1000).toFixed(1)} s`);

  const matrix = new Float32Array(CHUNKS * dims);
  vectors.forEach((v, i) => matrix.set(unit(v), i * dims));
  const queries = queryVectors.map(unit);
  const exact: Array<ReturnType<typeof exactTopK>> = [];
  const exactRow = await timeQueries(
    'exact, JS dot product over all vectors',
    async (i) => {
      exact.push(exactTopK(matrix, dims, queries[i]!));
      return null;
    },
    null,
  );
  exactRow.recall = 1;

  const pages: IndexedPage[] = [];
  for (let p = 0; p < CHUNKS / CHUNKS_PER_PAGE; p++) {
    const chunks = Array.from({ length: CHUNKS_PER_PAGE }, (_, k) => ({
      text: texts[p * CHUNKS_PER_PAGE + k]!,
      vector: vectors[p * CHUNKS_PER_PAGE + k]!,
    }));
    pages.push({ url: `https://site${p % 50}.example.com/page/${p}`, title: `Page ${p}`, chunks });
  }

  const rows: Row[] = [exactRow];
  const build: string[] = [];
  const kinds = (process.env.BENCH_INDEX_KINDS ?? 'ivf_flat').split(',').filter(Boolean) as AnnIndexKind[];
  for (const [n, kind] of kinds.entries()) {
    const dir = mkdtempSync(join(tmpdir(), 'quarry-bench-index-'));
    const index: PageIndex = await openPageIndex({
      dir,
      dimensions: dims,
      retentionDays: 0,
      maxChunks: 0,
      logger: silentLogger(),
      annIndex: kind,
      maintenanceEvery: Infinity,
      maintenanceRows: Infinity,
    });
    try {
      const insertStarted = performance.now();
      await index.addPages!(pages);
      const insertMs = performance.now() - insertStarted;
      const byVector = (i: number) =>
        index.search({ vector: queries[i]!, limit: K }).then((hits) => hits.map((h) => idOf(h.url, h.chunkIndex)));
      if (n === 0) rows.push(await timeQueries('LanceDB flat (no ANN index yet)', byVector, exact));
      const report = await index.optimize!();
      const steps = report.steps ?? {};
      build.push(
        `${kind}: insert ${(insertMs / 1000).toFixed(1)} s (${pages.length} pages through addPages); optimize ${(report.ms / 1000).toFixed(1)} s = compaction ${((steps.optimize ?? 0) / 1000).toFixed(1)} s + FTS ${((steps.ftsIndex ?? 0) / 1000).toFixed(1)} s + url btree ${((steps.urlIndex ?? 0) / 1000).toFixed(1)} s + vector index ${((steps.vectorIndex ?? 0) / 1000).toFixed(1)} s; ${((await index.stats()).bytes! / 2 ** 20).toFixed(0)} MB on disk`,
      );
      rows.push(await timeQueries(`LanceDB ${report.vectorIndex ?? kind}`, byVector, exact));
      if (n === 0) {
        rows.push(
          await timeQueries(
            'LanceDB full-text (BM25)',
            (i) => index.search({ text: queryTexts[i]!, limit: K }).then(() => null),
            null,
          ),
        );
        rows.push(
          await timeQueries(
            'LanceDB hybrid (RRF)',
            (i) => index.search({ text: queryTexts[i]!, vector: queries[i]!, limit: K }).then(() => null),
            null,
          ),
        );
      }
    } finally {
      await index.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }

  console.log(build.map((line) => `build:   ${line}`).join('\n'));
  console.log('\n| search | p50 ms | p95 ms | recall@10 | p50 vs exact JS |');
  console.log('|---|---:|---:|---:|---:|');
  for (const row of rows) {
    const recall = row.recall === null ? '—' : row.recall.toFixed(3);
    console.log(
      `| ${row.name} | ${row.p50.toFixed(1)} | ${row.p95.toFixed(1)} | ${recall} | ${(row.p50 / exactRow.p50).toFixed(2)}× |`,
    );
  }
  console.log(
    `(LanceDB rows go through PageIndex.search; total bench time ${((performance.now() - started) / 1000).toFixed(0)} s)`,
  );
}
