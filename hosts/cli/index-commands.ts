/**
 * quarry index stats | purge: the local page index from the command line.
 * Opens the index the way the server does (same data directory, same
 * embedding model), so a purge here is what a running server sees next.
 */
import { loadConfig } from '../../app/config.js';
import { createLogger } from '../../core/logger.js';
import { SemanticServices } from '../../services/semantic/semantic-services.js';
import type { PurgeRequest } from '../../services/vectors/types.js';

export interface PurgeFlags {
  all?: boolean;
  domain?: string;
  url?: string;
  olderThanDays?: string;
}

async function withIndex(
  run: (index: NonNullable<Awaited<ReturnType<SemanticServices['pageIndex']>>>) => Promise<number>,
): Promise<number> {
  const { config } = loadConfig();
  const logger = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel);
  const semantic = new SemanticServices(config, logger);
  try {
    const index = await semantic.pageIndex();
    if (!index) {
      process.stderr.write('quarry index: the page index is disabled in the config (vectorIndex.enabled)\n');
      return 2;
    }
    return await run(index);
  } finally {
    await semantic.close();
  }
}

export function runIndexStats(json: boolean): Promise<number> {
  return withIndex(async (index) => {
    const stats = await index.stats();
    process.stdout.write(
      json
        ? `${JSON.stringify(stats)}\n`
        : `${stats.pages} pages, ${stats.chunks} chunks, ${stats.dimensions}-d vectors, at ${stats.path}\n`,
    );
    return 0;
  });
}

export function runIndexPurge(flags: PurgeFlags): Promise<number> {
  const request: PurgeRequest = {};
  if (flags.all) request.all = true;
  if (flags.domain) request.domain = flags.domain;
  if (flags.url) request.url = flags.url;
  if (flags.olderThanDays !== undefined) {
    const days = Number(flags.olderThanDays);
    if (!Number.isFinite(days) || days < 0) {
      process.stderr.write(
        `quarry index purge: --older-than-days must be a number of days, got "${flags.olderThanDays}"\n`,
      );
      return Promise.resolve(2);
    }
    request.fetchedBefore = new Date(Date.now() - days * 86_400_000);
  }
  if (Object.keys(request).length === 0) {
    process.stderr.write('quarry index purge: say what to remove: --all, --domain D, --url U or --older-than-days N\n');
    return Promise.resolve(2);
  }
  return withIndex(async (index) => {
    const removed = await index.purge(request);
    process.stdout.write(`removed ${removed} chunks\n`);
    return 0;
  });
}
