/**
 * createEmbedder(): the embedding model behind the Embedder interface. The
 * model runs in tinypool worker processes (ProcessPool), so the event loop
 * never waits on tokenising or inference; calls are batched, coalesced and
 * bounded by BatchQueue.
 */
import { join } from 'node:path';
import { AppError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { builtWorkerPath } from '../../core/paths.js';
import { BatchQueue } from './batch-queue.js';
import { DEFAULT_REMOTE_HOST, missingModelError, planModels } from './model-resolution.js';
import { ProcessPool } from './process-pool.js';
import type { Embedder, EmbeddingModelInfo } from './types.js';
import type { EmbedResult, EmbedTask, LoadResult, ModelSpec } from './worker-protocol.js';

/** Mirrors the `embeddings` config section (core/config.ts) plus the data directory. */
export interface EmbedderOptions {
  dataDir: string;
  /** Hub id or local folder; null/absent uses the embedded model. */
  model?: string | null;
  allowRemote?: boolean;
  remoteHost?: string;
  /** Default <dataDir>/models. */
  cacheDir?: string | null;
  /** Worker processes. */
  threads?: number;
  batchSize?: number;
  /** Batches that may wait (× batchSize texts). */
  maxQueue?: number;
}

type Pool = ProcessPool<EmbedTask, LoadResult | EmbedResult>;

/** Loading may download a model (hundreds of MB), so it gets long; a batch of texts never should. */
const LOAD_TIMEOUT_MS = 10 * 60_000;
const BATCH_TIMEOUT_MS = 120_000;

/**
 * Tries the candidates in order, each in a fresh pool after a failure: transformers.js keeps the
 * first ONNX session's promise for the life of the process, so one unparsable model would make
 * every later load in that process fail too.
 */
async function loadFirstWorking(
  candidates: ModelSpec[],
  threads: number,
): Promise<{ pool: Pool; index: number; dimensions: number; failures: string[] }> {
  const failures: string[] = [];
  for (const [index, spec] of candidates.entries()) {
    const pool: Pool = new ProcessPool({ filename: builtWorkerPath('embed'), name: 'embed', processes: threads });
    try {
      const { dimensions } = (await pool.run({ kind: 'load', spec }, { timeoutMs: LOAD_TIMEOUT_MS })) as LoadResult;
      return { pool, index, dimensions, failures };
    } catch (error) {
      await pool.close();
      failures.push(`${spec.id} (${spec.source}): ${(error as Error).message.replace(/^embed worker failed: /, '')}`);
    }
  }
  throw missingModelError(`no embedding model could be loaded: ${failures.join('; ')}`);
}

export async function createEmbedder(
  options: EmbedderOptions,
  logger: Pick<Logger, 'info' | 'warn'>,
): Promise<Embedder> {
  const threads = options.threads ?? 1;
  const batchSize = options.batchSize ?? 64;
  const plan = planModels({
    model: options.model ?? null,
    allowRemote: options.allowRemote ?? true,
    remoteHost: options.remoteHost ?? DEFAULT_REMOTE_HOST,
    cacheDir: options.cacheDir ?? join(options.dataDir, 'models'),
    dataDir: options.dataDir,
  });
  const { pool, index, dimensions, failures } = await loadFirstWorking(plan.candidates, threads);
  const spec = plan.candidates[index]!;
  const info: EmbeddingModelInfo = { id: spec.id, source: spec.source, dimensions };
  if (options.model && index >= plan.configuredCount) {
    const reasons = [plan.skipped, ...failures.slice(0, plan.configuredCount)].filter(Boolean);
    info.fallbackReason = `configured model ${options.model} not used: ${reasons.join('; ')}`;
    logger.warn({ fallbackReason: info.fallbackReason }, 'embedding model fell back to the embedded model');
  }
  logger.info(
    { model: info.id, source: info.source, dimensions, threads },
    `embedding model ${info.id} (${info.source})`,
  );

  const queue = new BatchQueue(
    async (texts) => {
      const { dimensions: d, data } = (await pool.run(
        { kind: 'embed', spec, texts },
        { timeoutMs: BATCH_TIMEOUT_MS },
      )) as EmbedResult;
      return texts.map((_, i) => data.slice(i * d, (i + 1) * d));
    },
    { batchSize, maxQueuedTexts: (options.maxQueue ?? 256) * batchSize, concurrency: threads },
  );
  let closed = false;
  return {
    embed(texts, signal) {
      if (closed) return Promise.reject(new AppError('UNAVAILABLE', 'the embedder is closed'));
      return queue.submit(texts, signal);
    },
    info: () => ({ ...info }),
    async close() {
      if (closed) return;
      closed = true;
      queue.rejectAll(new AppError('CANCELLED', 'the embedder was closed'));
      await pool.close();
    },
  };
}
