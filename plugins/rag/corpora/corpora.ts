/**
 * The corpus store as the composition root hands it to plugins: opened on
 * first use under <dataDir>/corpora (opening recovers interrupted builds),
 * closed with the app.
 */
import { join } from 'node:path';
import type { Logger } from '../../../core/logger.js';
import { CORPORA_DIR } from '../../../services/storage-versions/data-layout.js';
import { CorpusStore } from './corpus-store.js';

export class Corpora {
  private opening: Promise<CorpusStore> | null = null;

  constructor(
    private readonly dataDir: string,
    private readonly logger: Logger,
    private readonly options: { annThreshold?: number } = {},
  ) {}

  store(): Promise<CorpusStore> {
    this.opening ??= CorpusStore.open({
      dir: join(this.dataDir, CORPORA_DIR),
      logger: this.logger,
      ...this.options,
    }).catch((error: unknown) => {
      this.opening = null;
      throw error;
    });
    return this.opening;
  }

  async close(): Promise<void> {
    const opening = this.opening;
    this.opening = null;
    if (opening) await (await opening.catch(() => null))?.close();
  }
}
