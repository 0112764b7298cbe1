/**
 * npm run bench:semantic — the semantic layer's figures, each beside a
 * baseline from the same run: embedding throughput of the embedded model with
 * 1 and 2 workers, and the LanceDB page index's query latency and recall@10
 * against exact search at 100k chunks.
 */
import { runEmbeddingBench } from './semantic/embeddings.js';
import { runVectorIndexBench } from './semantic/vector-index.js';

const only = process.argv[2];
if (!only || only === 'embeddings') await runEmbeddingBench();
if (!only || only === 'index') await runVectorIndexBench();
