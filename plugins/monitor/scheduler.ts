/**
 * The scheduler: each active monitor's next check is a delayed job on the
 * job mechanism (BullMQ on Redis, the embedded durable queue otherwise)
 * whose id and due time follow from the durable record (schedule.ts). A
 * committed check queues the next one; creation and resume queue the first.
 * The sweep — at start and every sweepIntervalSeconds, on every instance —
 * makes sure each active monitor has its job (submitting it again adds
 * nothing), hands over alerts a crash left behind, and moves a monitor on
 * whose scheduled job ended without committing (a failure), so no monitor
 * stops for good. Which instance runs a job, exactly once, is the job
 * mechanism's business (BullMQ's lock with expiry; one process embedded).
 */
import type { Logger } from '../../core/logger.js';
import type { JobRecord, Jobs } from '../../services/jobs/types.js';
import type { MonitorAlerts } from './alerts.js';
import { CHECK_JOB_KIND, nextRunAt, scheduledJobId, type CheckJobInput, type ScheduleSettings } from './schedule.js';
import type { MonitorRecord, MonitorStore } from './store.js';

const isFinished = (job: JobRecord) => job.status === 'completed' || job.status === 'failed';

export class MonitorScheduler {
  private timer: NodeJS.Timeout | null = null;
  private sweeping: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly store: MonitorStore,
    private readonly jobs: Jobs,
    private readonly alerts: MonitorAlerts,
    private readonly settings: ScheduleSettings & { sweepIntervalMs: number },
    private readonly logger: Logger,
  ) {}

  /** Queues the monitor's next scheduled check unless it is queued already (paused monitors have none). */
  async ensureScheduled(monitor: MonitorRecord): Promise<JobRecord | null> {
    if (monitor.status !== 'active') return null;
    const job = await this.submit(monitor);
    if (!isFinished(job)) return job;
    // The job of this state ended without committing (it failed): move the monitor on, once, whoever sees it first.
    const { record, changed } = await this.store.update(monitor.id, (current) =>
      current.seq === monitor.seq ? { ...current, seq: current.seq + 1 } : null,
    );
    if (record?.status !== 'active') return null;
    if (changed)
      this.logger.warn(
        { monitor: monitor.id, job: job.id, error: job.error },
        'a scheduled check ended without a result; the next one is queued',
      );
    return this.submit(record);
  }

  private submit(monitor: MonitorRecord): Promise<JobRecord> {
    const runAt = nextRunAt(monitor, this.settings, Date.now());
    const input: CheckJobInput = {
      monitorId: monitor.id,
      seq: monitor.seq,
      manual: false,
      scheduledFor: Math.round(runAt),
    };
    return this.jobs.submit(CHECK_JOB_KIND, input, {
      jobId: scheduledJobId(monitor.id, monitor.seq),
      runAt: new Date(runAt),
    });
  }

  /** Starts sweeping: now, then every sweepIntervalMs. */
  start(): void {
    const loop = (): void => {
      if (this.stopped) return;
      this.sweeping = this.sweep()
        .catch((error: unknown) => this.logger.error({ err: error }, 'monitor sweep failed; the next one retries'))
        .finally(() => {
          this.sweeping = null;
          if (!this.stopped) {
            this.timer = setTimeout(loop, this.settings.sweepIntervalMs);
            this.timer.unref();
          }
        });
    };
    loop();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.sweeping;
  }

  /** One pass over every monitor. */
  async sweep(): Promise<void> {
    for (const monitor of await this.store.list()) {
      if (this.stopped) return;
      try {
        await this.alerts.flush(monitor);
        await this.ensureScheduled(monitor);
      } catch (error) {
        this.logger.error({ err: error, monitor: monitor.id }, 'could not schedule a monitor; the next sweep retries');
      }
    }
  }
}
