/**
 * The optional task models as the areas see them: the entity tagger's token
 * classifier, verify's stance model and the passage reranker. Each is loaded
 * on first use (a worker process per model; most processes never need one)
 * and resolves to null — the area's offline default — when none is
 * configured or the configured one cannot be loaded; the reason is kept for
 * the features answer and logged once.
 */
import type { Feature } from '../../core/features.js';
import type { Logger } from '../../core/logger.js';
import type { TokenClassifier } from '../entities/token-classifier.js';
import { withoutPath as displayName, withoutPaths } from '../semantic/semantic-services.js';
import type { PassageReranker } from '../ranking/reranker.js';
import type { ModelKind, ModelsConfig } from './config.js';
import { entityLabelProblem } from './entity-labels.js';
import { loadModelHost, type ModelHost, type TaskModelInfo } from './model-host.js';
import { passageRerankerOf } from './passage-reranker.js';
import { pairQueue } from './pair-queue.js';
import type { ModelHead } from './protocol.js';
import { stanceLabelProblem, stanceModelOf, type StanceModel } from './stance-model.js';
import { tokenClassifierOf } from './token-classifier.js';

/** What each area does without a model (named in model_used and the features answer). */
export const OFFLINE_DEFAULTS: Record<ModelKind, string> = {
  entities: 'the offline tagger (averaged perceptron)',
  stance: 'the stance rules',
  reranker: 'no reranking (offline passage scores)',
};

const HEADS: Record<ModelKind, ModelHead> = { entities: 'token', stance: 'pair', reranker: 'pair' };
const LABEL_PROBLEMS: Record<ModelKind, (labels: string[]) => string | null> = {
  entities: entityLabelProblem,
  stance: stanceLabelProblem,
  reranker: () => null,
};

export interface ModelState {
  /** The model in use, or null (offline default). */
  model: TaskModelInfo | null;
  /** Why a configured model is not in use. */
  fallbackReason: string | null;
}

interface Slot<T> {
  promise: Promise<T | null> | null;
  host: ModelHost | null;
  close: () => void;
  state: ModelState;
}

export class ModelServices {
  private readonly slots = new Map<ModelKind, Slot<unknown>>();
  private closed = false;

  constructor(
    private readonly config: ModelsConfig & { dataDir: string },
    private readonly logger: Logger,
  ) {}

  tokenClassifier(): Promise<TokenClassifier | null> {
    return this.slot('entities', (host) => tokenClassifierOf(host, this.config.entities.batchSize));
  }

  stanceModel(): Promise<StanceModel | null> {
    return this.slot('stance', (host, slot) => {
      const queue = pairQueue(host, this.config.stance);
      slot.close = queue.close;
      return stanceModelOf(host, queue.scorePairs);
    });
  }

  passageReranker(): Promise<PassageReranker | null> {
    return this.slot('reranker', (host, slot) => {
      const queue = pairQueue(host, this.config.reranker);
      slot.close = queue.close;
      return passageRerankerOf(
        host,
        queue.scorePairs,
        this.config.reranker.topK,
        this.logger.child({ component: 'reranker-model' }),
      );
    });
  }

  /**
   * The model of one kind and why a configured one is not used (after its first use; before, only what is configured).
   */
  state(kind: ModelKind): ModelState {
    return { ...(this.slots.get(kind)?.state ?? { model: null, fallbackReason: null }) };
  }

  configured(kind: ModelKind): boolean {
    return this.config[kind].model !== null;
  }

  /** The worker process holding a loaded model (tests check placement). */
  workerPid(kind: ModelKind): number | null {
    return this.slots.get(kind)?.host?.workerPid ?? null;
  }

  describe(kind: ModelKind): Feature {
    const configured = this.config[kind].model;
    const { model, fallbackReason } = this.state(kind);
    if (model)
      return {
        available: true,
        detail: `${displayName(model.id)} (${model.source})`,
        info: { ...model, id: displayName(model.id) },
      };
    if (fallbackReason)
      return {
        available: true,
        detail: withoutPaths(`${OFFLINE_DEFAULTS[kind]}; ${fallbackReason}`),
        info: { fallbackReason: withoutPaths(fallbackReason) },
      };
    if (configured)
      return {
        available: true,
        detail: `${displayName(configured)}, loaded on first use`,
        info: { configured: displayName(configured) },
      };
    return { available: true, detail: OFFLINE_DEFAULTS[kind], info: { configured: null } };
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(
      [...this.slots.values()].map(async (slot) => {
        await slot.promise?.catch(() => null);
        slot.close();
        await slot.host?.close();
      }),
    );
  }

  private slot<T>(kind: ModelKind, wrap: (host: ModelHost, slot: Slot<unknown>) => T): Promise<T | null> {
    const configured = this.config[kind].model;
    if (!configured || this.closed) return Promise.resolve(null);
    let slot = this.slots.get(kind);
    if (!slot) {
      const created: Slot<unknown> = {
        promise: null,
        host: null,
        close: () => undefined,
        state: { model: null, fallbackReason: null },
      };
      created.promise = this.load(kind, configured).then((host) => {
        if (!host) return null;
        created.host = host;
        created.state = { model: host.info, fallbackReason: null };
        return wrap(host, created);
      });
      slot = created;
      this.slots.set(kind, slot);
    }
    return slot.promise as Promise<T | null>;
  }

  private async load(kind: ModelKind, model: string): Promise<ModelHost | null> {
    const { allowRemote, remoteHost, cacheDir, dataDir } = this.config;
    try {
      const outcome = await loadModelHost(
        {
          kind,
          head: HEADS[kind],
          model,
          threads: this.config[kind].threads,
          dataDir,
          allowRemote,
          remoteHost,
          cacheDir,
          labelProblem: LABEL_PROBLEMS[kind],
        },
        this.logger.child({ component: `${kind}-model` }),
      );
      if (outcome.host) return outcome.host;
      this.slots.get(kind)!.state = { model: null, fallbackReason: outcome.reason };
    } catch (error) {
      // The worker itself is missing (not built): the same fallback, with that reason.
      const reason = `configured ${kind} model ${model} not used: ${(error as Error).message}`;
      this.logger.warn({ kind, fallbackReason: reason }, `${kind} model fell back to the offline default`);
      this.slots.get(kind)!.state = { model: null, fallbackReason: reason };
    }
    return null;
  }
}
