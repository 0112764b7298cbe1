/**
 * Retrieval quality and latency of a RAG corpus. The five corpora of Chroma's
 * chunking evaluation are cut into pages (bench/chroma-dataset.ts) and stored
 * as one corpus the way rag/research stores pages (plugins/rag/corpora:
 * 200-token recursive chunks, each embedded); every question then searches it:
 *
 *   quarry        semantic-search: hybrid candidates rescored with the
 *                 calibrated passage relevance (plugins/rag/corpora/retrieve.ts)
 *   hybrid (RRF)  the same candidates in fused rank order
 *   vector only   cosine over the chunk embeddings
 *   BM25          LanceDB's full-text search alone (the baseline)
 *
 * A chunk is relevant when it overlaps a gold excerpt (by half of the shorter
 * of the two). recall@5 = share of a question's excerpts that some top-5 chunk
 * overlaps; MRR = 1 / rank of the first relevant chunk within the top 20.
 * Latency is per query, from the query text to the ranked hits. Then the
 * corpus grows with filler chunks (sentences of random corpus words) past the
 * ANN threshold, and the figures are taken again at that size.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '../../core/logger.js';
import { CorpusStore } from '../../plugins/rag/corpora/corpus-store.js';
import { prepareSources } from '../../plugins/rag/corpora/prepare.js';
import { chunkText } from '../../services/chunking/chunk-text.js';
import { retrieve } from '../../plugins/rag/corpora/retrieve.js';
import type { ChunkHit, StoredSourceInput } from '../../plugins/rag/corpora/types.js';
import type { Embedder } from '../../services/embeddings/types.js';
import { chromaPages, readChromaCorpora, readChromaQuestions, type ChromaQuestion } from '../chroma-dataset.js';
import { seededRandom } from '../../core/seeded-random.js';

const FILLER_CHUNKS = Number(process.env.BENCH_RAG_FILLER ?? 100_000);
const ANN_THRESHOLD = 50_000;

interface Located {
  corpusId: string;
  /** Code point offsets of the chunk in its corpus. */
  start: number;
  end: number;
}

interface SystemRun {
  label: string;
  search(question: string): Promise<ChunkHit[]>;
}

function overlaps(a: { start: number; end: number }, b: { start: number; end: number }): boolean {
  const shared = Math.min(a.end, b.end) - Math.max(a.start, b.start);
  return shared > 0 && shared >= 0.5 * Math.min(a.end - a.start, b.end - b.start);
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

async function measure(
  systems: SystemRun[],
  questions: ChromaQuestion[],
  locate: (hit: ChunkHit) => Located | undefined,
): Promise<string[][]> {
  const rows: string[][] = [];
  for (const system of systems) {
    let recall = 0;
    let reciprocal = 0;
    const latencies: number[] = [];
    for (const question of questions) {
      const started = performance.now();
      const hits = await system.search(question.question);
      latencies.push(performance.now() - started);
      const located = hits.map(locate);
      const relevant = (l: Located | undefined) =>
        l !== undefined && l.corpusId === question.corpusId && question.excerpts.some((e) => overlaps(l, e));
      const top5 = located.slice(0, 5);
      recall +=
        question.excerpts.filter((e) =>
          top5.some((l) => l !== undefined && l.corpusId === question.corpusId && overlaps(l, e)),
        ).length / question.excerpts.length;
      const first = located.slice(0, 20).findIndex(relevant);
      if (first >= 0) reciprocal += 1 / (first + 1);
    }
    rows.push([
      system.label,
      (recall / questions.length).toFixed(3),
      (reciprocal / questions.length).toFixed(3),
      percentile(latencies, 50).toFixed(1),
      percentile(latencies, 95).toFixed(1),
    ]);
  }
  return rows;
}

function print(title: string, rows: string[][]): void {
  const table = [['system', 'recall@5', 'MRR@20', 'p50 ms', 'p95 ms'], ...rows];
  const widths = table[0]!.map((_, c) => Math.max(...table.map((row) => row[c]!.length)));
  console.log(`\n${title}`);
  for (const row of table)
    console.log(row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  '));
}

export async function runRetrievalBench(embedder: Embedder): Promise<void> {
  const questions = readChromaQuestions();
  const corpora = readChromaCorpora([...new Set(questions.map((q) => q.corpusId))]);
  const pages = [...corpora].flatMap(([id, text]) => chromaPages(id, text));
  const dir = mkdtempSync(join(tmpdir(), 'quarry-bench-rag-'));
  const store = await CorpusStore.open({ dir, logger: silentLogger(), annThreshold: ANN_THRESHOLD });
  try {
    const info = embedder.info();
    const record = await store.create({
      topic: 'chroma chunking evaluation',
      parameters: {},
      queries_planned: [],
      embedding_model: info.id,
      dimensions: info.dimensions,
    });
    const started = performance.now();
    const located = new Map<string, Located>();
    for (let i = 0; i < pages.length; i += 50) {
      const batch = pages.slice(i, i + 50);
      const prepared = await prepareSources(
        batch.map((p) => ({
          url: `bench:${p.id}`,
          title: p.title,
          content: p.text,
          summary: '',
          engine: 'bench',
          scraped_at: new Date().toISOString(),
          relevance_score: 0,
          query: '',
        })),
        embedder,
        chunkText,
      );
      const stored = await store.addSources(record.corpus_id, prepared);
      stored.forEach((source, j) => {
        const page = batch[j]!;
        prepared[j]!.chunks.forEach((chunk, index) =>
          located.set(`${source.source_id}#${index}`, {
            corpusId: page.corpusId,
            start: page.start + chunk.start,
            end: page.start + chunk.end,
          }),
        );
      });
    }
    await store.update(record.corpus_id, (r) => ({ ...r, status: 'complete', owner: null }));
    await store.maintain(record.corpus_id);
    const size = await store.counts(record.corpus_id);
    console.log(
      `RAG retrieval: ${questions.length} questions over one corpus of ${size.sources} pages, ${size.chunks} chunks (${info.id}), built in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );

    const locate = (hit: ChunkHit) => located.get(`${hit.source_id}#${hit.chunk_index}`);
    const systems = (current: typeof record): SystemRun[] => [
      {
        label: 'quarry semantic-search',
        search: async (q) => (await retrieve(store, current, q, { limit: 20, minRelevance: 0, embedder })).hits,
      },
      {
        label: 'hybrid (RRF order)',
        search: async (q) =>
          (await retrieve(store, current, q, { limit: 20, minRelevance: 0, embedder, order: 'fused' })).hits,
      },
      {
        label: 'vector only',
        search: async (q) => store.search(current.corpus_id, { vector: (await embedder.embed([q]))[0]!, limit: 20 }),
      },
      { label: 'BM25 (baseline)', search: (q) => store.search(current.corpus_id, { text: q, limit: 20 }) },
    ];
    print(`At ${size.chunks} chunks (exact vector search):`, await measure(systems(record), questions, locate));

    if (FILLER_CHUNKS > 0) {
      const random = seededRandom(99);
      const vocabulary = [
        ...new Set(
          [...corpora.values()]
            .join(' ')
            .toLowerCase()
            .match(/[a-z]{4,}/g) ?? [],
        ),
      ];
      const fillStarted = performance.now();
      for (let made = 0; made < FILLER_CHUNKS; made += 2000) {
        const inputs: StoredSourceInput[] = [];
        const texts = Array.from({ length: 2000 }, () =>
          Array.from({ length: 60 }, () => vocabulary[Math.floor(random() * vocabulary.length)]).join(' '),
        );
        const vectors = await embedder.embed(texts);
        inputs.push({
          url: `bench:filler-${made}`,
          title: 'filler',
          content: texts.join('\n'),
          summary: '',
          word_count: 0,
          engine: 'filler',
          scraped_at: new Date().toISOString(),
          relevance_score: 0,
          query: '',
          chunks: texts.map((text, i) => ({ text, start: 0, end: text.length, tokens: 60, vector: vectors[i]! })),
        });
        await store.addSources(record.corpus_id, inputs);
      }
      const indexStarted = performance.now();
      const { vectorIndex } = await store.maintain(record.corpus_id);
      const grown = await store.counts(record.corpus_id);
      console.log(
        `\nGrown with filler to ${grown.chunks} chunks in ${((indexStarted - fillStarted) / 1000).toFixed(1)} s; indexes (full text${vectorIndex ? `, ${vectorIndex}` : ''}) built in ${((performance.now() - indexStarted) / 1000).toFixed(1)} s`,
      );
      print(
        `At ${grown.chunks} chunks (${vectorIndex ?? 'exact'} vector search):`,
        await measure(systems(record), questions, locate),
      );
    }
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
