/**
 * One configured task model in worker processes: its ways to load (folder,
 * cache, hub — the embedding model's resolution), tried in order, each in a
 * fresh process pool; the first that loads and whose labels fit is kept.
 * When none does, the caller keeps its offline default and the reason is
 * returned for info(), the features answer and the log.
 */
import { join } from 'node:path';
import type { Logger } from '../../core/logger.js';
import { builtWorkerPath } from '../../core/paths.js';
import { configuredCandidates } from '../embeddings/model-resolution.js';
import { ProcessPool } from '../embeddings/process-pool.js';
import type { EmbeddingModelSource } from '../embeddings/types.js';
import type { ModelSpec } from '../embeddings/worker-protocol.js';
import { withoutPath } from '../semantic/semantic-services.js';
import type { ModelKind } from './config.js';
import type { LoadResult, ModelHead, ModelTask } from './protocol.js';

/** Loading may download hundreds of MB; one batch of inference never should take long. */
const LOAD_TIMEOUT_MS = 10 * 60_000;
export const TASK_TIMEOUT_MS = 120_000;

export interface TaskModelInfo {
  kind: ModelKind;
  /** Hub id or folder of the model in use. */
  id: string;
  /** What answers report (model_used): the hub id, or a folder's last part (no server paths). */
  name: string;
  source: Exclude<EmbeddingModelSource, 'embedded'>;
  /** config.json id2label, in id order. */
  labels: string[];
}

export interface ModelHostOptions {
  kind: ModelKind;
  head: ModelHead;
  model: string;
  threads: number;
  dataDir: string;
  allowRemote: boolean;
  remoteHost: string;
  cacheDir: string | null;
  /** Why a loaded model's labels cannot serve this kind, or null when they can. */
  labelProblem(labels: string[]): string | null;
}

export interface ModelHost {
  info: TaskModelInfo;
  spec: ModelSpec;
  /** The worker process that loaded it. */
  workerPid: number;
  run<R>(task: ModelTask, timeoutMs?: number): Promise<R>;
  close(): Promise<void>;
}

export type HostOutcome = { host: ModelHost; reason: null } | { host: null; reason: string };

export async function loadModelHost(
  options: ModelHostOptions,
  logger: Pick<Logger, 'info' | 'warn'>,
): Promise<HostOutcome> {
  const cacheDir = options.cacheDir ?? join(options.dataDir, 'models');
  const { specs, skipped } = configuredCandidates(options.model, {
    model: options.model,
    allowRemote: options.allowRemote,
    remoteHost: options.remoteHost,
    cacheDir,
    dataDir: options.dataDir,
  });
  const failures: string[] = skipped ? [skipped] : [];
  for (const spec of specs) {
    const pool = new ProcessPool<ModelTask, unknown>({
      filename: builtWorkerPath('models'),
      name: `${options.kind} model`,
      processes: options.threads,
    });
    try {
      const { labels, pid } = (await pool.run(
        { kind: 'load', spec, head: options.head },
        { timeoutMs: LOAD_TIMEOUT_MS },
      )) as LoadResult;
      const problem = options.labelProblem(labels);
      if (problem) throw new Error(problem);
      const info: TaskModelInfo = {
        kind: options.kind,
        id: spec.id,
        name: withoutPath(spec.id),
        source: spec.source as TaskModelInfo['source'],
        labels,
      };
      logger.info({ model: info.id, source: info.source, labels }, `${options.kind} model ${info.id} (${info.source})`);
      return {
        host: {
          info,
          spec,
          workerPid: pid,
          run: async <R>(task: ModelTask, timeoutMs = TASK_TIMEOUT_MS) => (await pool.run(task, { timeoutMs })) as R,
          close: () => pool.close(),
        },
        reason: null,
      };
    } catch (error) {
      await pool.close();
      failures.push(
        `${spec.id} (${spec.source}): ${(error as Error).message.replace(/^.* model worker failed: /, '')}`,
      );
    }
  }
  const reason = `configured ${options.kind} model ${options.model} not used: ${failures.join('; ')}`;
  logger.warn({ kind: options.kind, fallbackReason: reason }, `${options.kind} model fell back to the offline default`);
  return { host: null, reason };
}
