/**
 * npm run bench:chunking — every chunking strategy on Chroma's chunking
 * evaluation (5 corpora, 472 questions with gold excerpt offsets), without
 * embeddings: per question, recall = share of its excerpts inside a single
 * chunk, IoU = excerpt tokens / tokens of the fewest chunks covering them.
 * The semantic strategy runs twice: with the embedding model Quarry uses
 * (the embedded offline model unless QUARRY_EMBEDDING_MODEL names another)
 * and, as a baseline, with a bag-of-words hashing embedding.
 *
 * Dataset: ../shared/fixtures/datasets/chunking/chroma-chunking-evaluation
 * (or CHUNKING_DATASET_DIR). Exits 0 with a message when it is absent.
 * BENCH_MAX_TOKENS / BENCH_OVERLAP_TOKENS change the budget (default 256 / 32).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chunkText } from '../services/chunking/chunk-text.js';
import { scoreQuestion, type GoldExcerpt } from '../services/chunking/evaluation.js';
import { tmpdir } from 'node:os';
import { readChromaQuestions } from './chroma-dataset.js';
import { hashingEmbedding } from '../services/chunking/hashing-embedding.js';
import { embedTextsAdapter } from '../services/embeddings/adapter.js';
import { createEmbedder } from '../services/embeddings/embedding-service.js';
import { countTokens, TOKENIZER_NAME } from '../services/chunking/tokenizer.js';
import { CHUNK_STRATEGIES, type Chunk, type EmbedTexts } from '../services/chunking/types.js';

const DATASET_DIR = resolve(
  process.env.CHUNKING_DATASET_DIR ?? '../shared/fixtures/datasets/chunking/chroma-chunking-evaluation',
);
const MAX_TOKENS = Number(process.env.BENCH_MAX_TOKENS ?? 256);
const OVERLAP_TOKENS = Number(process.env.BENCH_OVERLAP_TOKENS ?? 32);

interface Question {
  corpusId: string;
  excerpts: GoldExcerpt[];
}

function readQuestions(): Question[] {
  return readChromaQuestions(DATASET_DIR).map((question) => ({
    corpusId: question.corpusId,
    excerpts: question.excerpts.map((excerpt) => ({
      start: excerpt.start,
      end: excerpt.end,
      tokens: countTokens(excerpt.content),
    })),
  }));
}

const mean = (values: number[]): number =>
  values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length;

async function main(): Promise<void> {
  if (!existsSync(join(DATASET_DIR, 'questions_df.csv'))) {
    console.log(
      `Chunking dataset not found at ${DATASET_DIR}; nothing to benchmark (set CHUNKING_DATASET_DIR to point at it).`,
    );
    return;
  }
  const questions = readQuestions();
  const corpusIds = [...new Set(questions.map((question) => question.corpusId))];
  const corpora = new Map(corpusIds.map((id) => [id, readFileSync(join(DATASET_DIR, `${id}.md`), 'utf8')]));
  const totalChars = [...corpora.values()].reduce((sum, text) => sum + text.length, 0);
  console.log(
    `Chroma chunking evaluation: ${questions.length} questions, ${corpusIds.length} corpora (${(totalChars / 1e6).toFixed(2)} M chars)`,
  );
  const embedder = await createEmbedder(
    {
      dataDir: join(tmpdir(), 'quarry-bench-chunking'),
      model: process.env.QUARRY_EMBEDDING_MODEL ?? null,
      allowRemote: false,
    },
    { info: () => undefined, warn: (...args: unknown[]) => console.error(...args) } as never,
  );
  console.log(
    `Budget: maxTokens ${MAX_TOKENS}, overlapTokens ${OVERLAP_TOKENS} (fixed, recursive); tokenizer ${TOKENIZER_NAME}; semantic embeds with ${embedder.info().id}\n`,
  );

  const runs: Array<{ label: string; strategy: (typeof CHUNK_STRATEGIES)[number]; embed: EmbedTexts }> = [
    ...CHUNK_STRATEGIES.map((strategy) => ({ label: strategy, strategy, embed: embedTextsAdapter(embedder) })),
    { label: 'semantic (hashing baseline)', strategy: 'semantic', embed: hashingEmbedding() },
  ];
  const table: string[][] = [['strategy', 'recall', 'IoU', 'chunks', 'mean tokens', 'max tokens', 'time ms']];
  for (const { label, strategy, embed } of runs) {
    const chunksByCorpus = new Map<string, Chunk[]>();
    const started = performance.now();
    for (const [id, text] of corpora) {
      chunksByCorpus.set(
        id,
        await chunkText(text, { strategy, maxTokens: MAX_TOKENS, overlapTokens: OVERLAP_TOKENS, embed }),
      );
    }
    const elapsed = performance.now() - started;
    const scores = questions.map((question) =>
      scoreQuestion(chunksByCorpus.get(question.corpusId)!, question.excerpts),
    );
    const allChunks = [...chunksByCorpus.values()].flat();
    table.push([
      label,
      mean(scores.map((score) => score.recall)).toFixed(3),
      mean(scores.map((score) => score.iou)).toFixed(3),
      String(allChunks.length),
      mean(allChunks.map((chunk) => chunk.tokens)).toFixed(1),
      String(Math.max(...allChunks.map((chunk) => chunk.tokens))),
      elapsed.toFixed(0),
    ]);
  }
  const widths = table[0]!.map((_, column) => Math.max(...table.map((row) => row[column]!.length)));
  for (const row of table)
    console.log(
      row
        .map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
        .join('  '),
    );
  await embedder.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
