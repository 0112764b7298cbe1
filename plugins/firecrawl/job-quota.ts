/**
 * How many crawls and batch scrapes one key may have queued or running
 * (quotas.firecrawlJobs): each can hold a job lane for hours and read
 * thousands of pages, so one key cannot queue them without bound.
 */
import type { CallContext } from '../../core/capability.js';
import { quotaExceeded } from '../../core/principal.js';
import { queueCountsFor } from './queue-status.js';
import type { FirecrawlServices } from './uses.js';

export async function checkJobQuota(services: FirecrawlServices, kinds: string[], ctx: CallContext): Promise<void> {
  const caller = ctx.caller;
  if (!caller) return;
  const max = services.config.quotas.firecrawlJobs;
  // An admin reads every key's jobs; the quota counts the caller's own.
  const counts = await queueCountsFor(services, kinds, ctx);
  if (counts.active + counts.waiting >= max)
    throw quotaExceeded('crawls and batch scrapes queued or running', max, 'quotas.firecrawlJobs');
}
