/**
 * The semantic layer as plugins see it: the embedding model and the local
 * page index, each created on first use (loading a model starts a worker;
 * most processes, such as CLI commands, never need one) and reported in the
 * features registry once known.
 */
import { join } from 'node:path';
import type { EmbedderOptions } from '../embeddings/embedding-service.js';
import type { Embedder, EmbeddingModelInfo } from '../embeddings/types.js';
import { AppError } from '../../core/errors.js';
import type { Feature } from '../../core/features.js';
import type { Logger } from '../../core/logger.js';
import type { PageIndex } from '../vectors/types.js';

/** The settings the semantic layer reads (the embeddings and vectorIndex sections, and the data directory). */
export interface SemanticConfig {
  dataDir: string;
  embeddings: Omit<EmbedderOptions, 'dataDir'>;
  vectorIndex: { enabled: boolean; retentionDays: number; maxChunks: number; dir?: string | null };
}

/** Where the page index lives: the configured directory (which several instances may share) or <dataDir>/page-index. */
export function pageIndexDir(config: Pick<SemanticConfig, 'dataDir' | 'vectorIndex'>): string {
  return config.vectorIndex.dir ?? join(config.dataDir, 'page-index');
}

export class SemanticServices {
  private embedderPromise: Promise<Embedder> | null = null;
  private indexPromise: Promise<PageIndex | null> | null = null;
  private loadedModel: EmbeddingModelInfo | null = null;
  private lastError: string | null = null;
  private closed = false;

  constructor(
    private readonly config: SemanticConfig,
    private readonly logger: Logger,
  ) {}

  /** The embedding model; UNAVAILABLE when not even the embedded model can be loaded. */
  embedder(): Promise<Embedder> {
    if (this.closed) return Promise.reject(new AppError('UNAVAILABLE', 'the semantic layer is shut down'));
    this.embedderPromise ??= this.loadEmbedder().catch((error: unknown) => {
      this.embedderPromise = null;
      this.lastError = (error as Error).message;
      throw error instanceof AppError
        ? error
        : new AppError('UNAVAILABLE', `no embedding model could be loaded: ${(error as Error).message}`, {
            cause: error,
          });
    });
    return this.embedderPromise;
  }

  /**
   * The embedding model, or null when none can be loaded (said on the caller's logger): the caller then ranks by words
   * only.
   */
  async embedderOrNull(logger: Logger): Promise<Embedder | null> {
    try {
      return await this.embedder();
    } catch (error) {
      logger.warn({ err: error }, 'no embedding model: ranking by words only');
      return null;
    }
  }

  /** The local page index, or null when disabled in the config. */
  pageIndex(): Promise<PageIndex | null> {
    if (!this.config.vectorIndex.enabled) return Promise.resolve(null);
    if (this.closed) return Promise.reject(new AppError('UNAVAILABLE', 'the semantic layer is shut down'));
    this.indexPromise ??= this.openIndex().catch((error: unknown) => {
      this.indexPromise = null;
      throw error;
    });
    return this.indexPromise;
  }

  describeEmbeddings(): Feature {
    if (this.loadedModel) {
      const model = this.loadedModel;
      const fallback = model.fallbackReason ? ` (configured model not used: ${model.fallbackReason})` : '';
      const shown = {
        ...model,
        id: withoutPath(model.id),
        ...(model.fallbackReason ? { fallbackReason: withoutPaths(model.fallbackReason) } : {}),
      };
      return {
        available: true,
        detail: withoutPaths(`${shown.id} (${model.source}, ${model.dimensions} dimensions)${fallback}`),
        info: shown,
      };
    }
    if (this.lastError) return { available: false, detail: withoutPaths(this.lastError) };
    const configured = this.config.embeddings.model ? withoutPath(this.config.embeddings.model) : null;
    const wanted = configured ?? 'the embedded offline model (quarry/glove-static-100d)';
    return { available: true, detail: `${wanted}, loaded on first use`, info: { configured } };
  }

  async close(): Promise<void> {
    this.closed = true;
    const [embedder, index] = await Promise.allSettled([this.embedderPromise, this.indexPromise]);
    if (index.status === 'fulfilled' && index.value) await index.value.close().catch(() => undefined);
    if (embedder.status === 'fulfilled' && embedder.value) await embedder.value.close().catch(() => undefined);
  }

  private async loadEmbedder(): Promise<Embedder> {
    const { createEmbedder } = await import('../embeddings/embedding-service.js');
    const embedder = await createEmbedder(
      { ...this.config.embeddings, dataDir: this.config.dataDir },
      this.logger.child({ component: 'embeddings' }),
    );
    this.loadedModel = embedder.info();
    this.lastError = null;
    return embedder;
  }

  private async openIndex(): Promise<PageIndex> {
    const embedder = await this.embedder();
    const { openPageIndex } = await import('../vectors/lance-page-index.js');
    const { retentionDays, maxChunks } = this.config.vectorIndex;
    return openPageIndex({
      dir: pageIndexDir(this.config),
      dimensions: embedder.info().dimensions,
      retentionDays,
      maxChunks,
      logger: this.logger.child({ component: 'page-index' }),
    });
  }
}

/** A model given as a folder is shown by its name only: the features answer names no server paths. */
export function withoutPath(model: string): string {
  return /^(?:[/.~]|[A-Za-z]:[\\/])/.test(model)
    ? (model.split(/[\\/]/).filter(Boolean).at(-1) ?? 'local model')
    : model;
}

/** Absolute paths inside a message, cut to their last part. */
export function withoutPaths(text: string): string {
  return text.replace(/(?:^|(?<=[\s("'=:]))\/(?:[^\s/"')]+\/)+([^\s/"')]+)/g, '…/$1');
}
