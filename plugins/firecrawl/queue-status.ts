/**
 * Firecrawl's queue routes (`/team/queue-status`, `/concurrency-check`), read
 * from the durable jobs: what this key's crawls and batch scrapes are doing
 * now. Quarry runs jobs.concurrency jobs of its firecrawl lane at once per
 * instance, so that is the max a key can have active; each key sees only its
 * own jobs (an admin's view lists every key's, but counts its own here too).
 * mostRecentSuccess is when the key's latest of those jobs completed, as the
 * job store keeps it, within the last 24 hours as Firecrawl answers it.
 */
import { z } from 'zod';
import { defineCapability, type CallContext } from '../../core/capability.js';
import { firecrawlErrorReply } from './envelope.js';
import { firecrawlRoute, type FirecrawlVersion } from './routes.js';
import type { FirecrawlServices } from './uses.js';

type QueueServices = Pick<FirecrawlServices, 'jobs' | 'config'>;

export interface QueueCounts {
  active: number;
  waiting: number;
}

/** Counts the caller's own unfinished jobs of these kinds: processing ones are active, queued ones wait. */
export async function queueCountsFor(services: QueueServices, kinds: string[], ctx: CallContext): Promise<QueueCounts> {
  const caller = ctx.caller;
  const lists = await Promise.all(kinds.map((kind) => services.jobs.unfinishedFor(kind, caller)));
  const own = lists.flat().filter((job) => caller === undefined || job.owner?.id === caller.id);
  return countByStatus(own.map((job) => job.status));
}

/** Firecrawl answers a success of the last 24 hours, null for an older one. */
export const RECENT_SUCCESS_MS = 24 * 60 * 60 * 1000;

/** When the caller's latest job of these kinds completed, within the last 24 hours (ISO 8601), else null. */
export async function mostRecentSuccessFor(
  services: QueueServices,
  kinds: string[],
  ctx: CallContext,
): Promise<string | null> {
  const times = await Promise.all(kinds.map((kind) => services.jobs.lastCompletedFor(kind, ctx.caller)));
  return latestWithin(times, new Date(), RECENT_SUCCESS_MS);
}

/** Pure: the latest of the ISO times no older than windowMs before now; null when there is none. */
export function latestWithin(times: Array<string | null>, now: Date, windowMs: number): string | null {
  const recent = times
    .filter((time): time is string => time !== null)
    .filter((time) => now.getTime() - Date.parse(time) <= windowMs);
  return recent.reduce<string | null>((latest, time) => (latest === null || time > latest ? time : latest), null);
}

/** Pure: processing is active, everything else unfinished (queued, awaiting a retry) waits. */
export function countByStatus(statuses: string[]): QueueCounts {
  const active = statuses.filter((status) => status === 'processing').length;
  return { active, waiting: statuses.length - active };
}

export function queueCapabilities(services: QueueServices, kinds: string[], version: FirecrawlVersion) {
  const maxConcurrency = () => services.config.jobs.concurrency;
  const queueStatus = defineCapability({
    id: `firecrawl.queue_status_${version}`,
    title: `Queue status (Firecrawl ${version})`,
    description:
      "This key's crawls and batch scrapes in the job queue: jobsInQueue, activeJobsInQueue (running), " +
      'waitingJobsInQueue (queued), maxConcurrency (jobs.concurrency), mostRecentSuccess (when the latest of ' +
      'them completed, ISO 8601, within the last 24 hours; else null).',
    input: z.strictObject({}),
    output: z.object({
      success: z.literal(true),
      jobsInQueue: z.int(),
      activeJobsInQueue: z.int(),
      waitingJobsInQueue: z.int(),
      maxConcurrency: z.int(),
      mostRecentSuccess: z.string().nullable(),
    }),
    http: { method: 'GET', ...firecrawlRoute(version, '/team/queue-status'), errorReply: firecrawlErrorReply },
    readOnly: true,
    async handler(_input, ctx) {
      const [counts, mostRecentSuccess] = await Promise.all([
        queueCountsFor(services, kinds, ctx),
        mostRecentSuccessFor(services, kinds, ctx),
      ]);
      return {
        success: true as const,
        jobsInQueue: counts.active + counts.waiting,
        activeJobsInQueue: counts.active,
        waitingJobsInQueue: counts.waiting,
        maxConcurrency: maxConcurrency(),
        mostRecentSuccess,
      };
    },
  });
  const concurrencyCheck = defineCapability({
    id: `firecrawl.concurrency_check_${version}`,
    title: `Concurrency check (Firecrawl ${version})`,
    description: "This key's crawls and batch scrapes running now (concurrency) and the most it can run at once.",
    input: z.strictObject({}),
    output: z.object({ success: z.literal(true), concurrency: z.int(), maxConcurrency: z.int() }),
    http: { method: 'GET', ...firecrawlRoute(version, '/concurrency-check'), errorReply: firecrawlErrorReply },
    readOnly: true,
    async handler(_input, ctx) {
      const counts = await queueCountsFor(services, kinds, ctx);
      return { success: true as const, concurrency: counts.active, maxConcurrency: maxConcurrency() };
    },
  });
  return [queueStatus, concurrencyCheck];
}
