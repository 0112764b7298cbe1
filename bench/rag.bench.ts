/**
 * npm run bench:rag — retrieval quality and latency of RAG corpora, beside a
 * plain BM25 baseline in the same run (bench/rag/retrieval.ts); the corpus then
 * grows with BENCH_RAG_FILLER filler chunks (default 100,000; 0 skips) past the
 * ANN threshold and is measured again.
 * `npm run bench:rag -- --fit` instead fits the passage relevance model
 * (bench/rag/calibration.ts) and prints the weights.
 *
 * Dataset: ../shared/fixtures/datasets/chunking/chroma-chunking-evaluation
 * (or CHUNKING_DATASET_DIR). Exits 0 with a message when it is absent.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmbedder } from '../services/embeddings/embedding-service.js';
import { CHROMA_DATASET_DIR, chromaDatasetPresent } from './chroma-dataset.js';
import { runCalibrationFit } from './rag/calibration.js';
import { runRetrievalBench } from './rag/retrieval.js';

async function main(): Promise<void> {
  if (!chromaDatasetPresent()) {
    console.log(
      `Chunking dataset not found at ${CHROMA_DATASET_DIR}; nothing to benchmark (set CHUNKING_DATASET_DIR to point at it).`,
    );
    return;
  }
  const embedder = await createEmbedder(
    {
      dataDir: join(tmpdir(), 'quarry-bench-rag'),
      model: process.env.QUARRY_EMBEDDING_MODEL ?? null,
      allowRemote: false,
    },
    { info: () => undefined, warn: (...args: unknown[]) => console.error(...args) } as never,
  );
  try {
    if (process.argv.includes('--fit')) await runCalibrationFit(embedder);
    else await runRetrievalBench(embedder);
  } finally {
    await embedder.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
