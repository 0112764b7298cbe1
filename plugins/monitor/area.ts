/**
 * The monitor area's parts, built once per running service and shared by its
 * capabilities, its job handler and its scheduler; and the operations
 * behind the eight endpoints. Decisions the spec leaves open (docs/monitor.md):
 * the list shows paused monitors too (filter with `status`); pause of a paused
 * monitor and resume of an active one answer as if they had changed it; a
 * manual check runs whatever the state (a paused monitor stays paused);
 * `status` stays `active` or `paused` during and after a check
 * (`check_in_progress` tells); concurrent manual checks of one state are one job.
 */
import type { MonitorServices } from './uses.js';
import { randomBytes } from 'node:crypto';
import { AppError } from '../../core/errors.js';
import { mayAccess, quotaExceeded, type Principal } from '../../core/principal.js';
import { recordMutex } from '../../core/stores/record-mutex.js';
import { assertKnownEngines } from '../../services/web-search/search-runner.js';
import { generateWebhookSecret } from '../../services/webhooks/standard-webhooks.js';
import { MonitorAlerts } from './alerts.js';
import { runCheck, type CheckDeps } from './check.js';
import { pageReader } from './read-pages.js';
import { CHECK_JOB_KIND, manualJobId, scheduledJobId, type CheckJobInput } from './schedule.js';
import { MonitorScheduler } from './scheduler.js';
import type { CreateInput, ListItemView, MonitorView, ResultView } from './schemas.js';
import { MonitorStore, type MonitorRecord } from './store.js';
import { listItemView, monitorView, resultView } from './views.js';

const areas = new WeakMap<MonitorServices, MonitorArea>();

/** The area of this running service (setup, jobHandlers and start all get the same one). */
export function monitorArea(services: MonitorServices): MonitorArea {
  let area = areas.get(services);
  if (!area) {
    area = new MonitorArea(services);
    areas.set(services, area);
  }
  return area;
}

function notFound(id: string): AppError {
  return new AppError('NOT_FOUND', `monitor_id: no monitor ${id}`, { details: { field: 'monitor_id' } });
}

/** The checks an hour the active ones of these monitors are scheduled for. */
function scheduledChecksPerHour(records: MonitorRecord[]): number {
  return records
    .filter((record) => record.status === 'active')
    .reduce((sum, record) => sum + 60 / record.check_interval_minutes, 0);
}

export class MonitorArea {
  readonly store: MonitorStore;
  readonly alerts: MonitorAlerts;
  readonly scheduler: MonitorScheduler;
  readonly checkDeps: CheckDeps;

  constructor(private readonly services: MonitorServices) {
    const { config, stores, logger } = services;
    const settings = config.monitor;
    const log = logger.child({ component: 'monitor' });
    this.store = new MonitorStore(stores.records, recordMutex(stores.redis));
    this.alerts = new MonitorAlerts(this.store, services.webhooks, log);
    this.scheduler = new MonitorScheduler(
      this.store,
      services.jobs,
      this.alerts,
      {
        minuteMs: settings.testOnlyMinuteMs,
        jitterShare: settings.jitterShare,
        sweepIntervalMs: settings.sweepIntervalSeconds * 1000,
      },
      log,
    );
    this.checkDeps = {
      store: this.store,
      scheduler: this.scheduler,
      alerts: this.alerts,
      search: services.webSearch,
      readPages: pageReader(services.scraper, Math.min(20_000, settings.checkTimeoutSeconds * 250)),
      llm: services.llm,
      settings: {
        timeoutMs: settings.checkTimeoutSeconds * 1000,
        resultsPerCheck: settings.resultsPerCheck,
        keepResults: settings.keepResults,
        seenUrls: settings.seenUrls,
        deepAnalysisPages: settings.deepAnalysisPages,
      },
      logger: log,
      onChecked: (event) => services.events.emit('monitor.checked', event),
    };
  }

  runCheck(input: CheckJobInput, job: Parameters<typeof runCheck>[2]) {
    return runCheck(this.checkDeps, input, job);
  }

  async create(
    input: CreateInput,
    owner: Principal | undefined,
  ): Promise<MonitorView & { webhook_secret: string | null }> {
    if (input.engines) assertKnownEngines(this.services.engines, input.engines);
    if (input.webhook_url) await this.services.webhooks.assertDeliverable(input.webhook_url, 'webhook_url');
    const perMonitor = this.services.config.monitor.webhookSecret === 'per-monitor';
    const secret = input.webhook_url && perMonitor ? generateWebhookSecret() : null;
    const record: MonitorRecord = {
      id: `mon_${randomBytes(12).toString('hex')}`,
      ...(owner ? { owner_id: owner.id } : {}),
      topic: input.topic,
      keywords: [...new Set(input.keywords)],
      sources: input.sources?.length ? [...new Set(input.sources)] : null,
      check_interval_minutes: input.check_interval_minutes,
      webhook_url: input.webhook_url ?? null,
      deep_analysis: input.deep_analysis,
      engines: input.engines ? [...new Set(input.engines.map((id) => this.services.engines.canonicalId(id)))] : null,
      alert_on_first_check: input.alert_on_first_check,
      status: 'active',
      created_at: new Date().toISOString(),
      last_checked: null,
      alerts_sent: 0,
      secret,
      seq: 0,
      commits: 0,
      last_commit_job: null,
      result_ids: [],
      alerts: [],
      last_check: null,
      checks_run: 0,
      baseline_done: false,
    };
    // Under the owner's lock, so concurrent creates cannot pass the caps together.
    await this.store.locked(`owner:${owner?.id ?? ''}`, async () => {
      await this.assertWithinQuota(owner?.id, record, true);
      await this.store.create(record);
    });
    const job = await this.scheduler.ensureScheduled(record);
    return {
      ...monitorView(record, { nextCheckAt: job?.runAt ?? null, checkInProgress: false, deliveries: new Map() }),
      webhook_secret: secret,
    };
  }

  async list(viewer: Principal | undefined, status?: 'active' | 'paused'): Promise<ListItemView[]> {
    const all = await this.store.list();
    return all
      .filter((record) => mayAccess(viewer, record.owner_id) && (!status || record.status === status))
      .map(listItemView);
  }

  /** The monitor when viewer may see it; NOT_FOUND otherwise, as for a monitor that does not exist. */
  private async owned(id: string, viewer: Principal | undefined): Promise<MonitorRecord> {
    const record = await this.store.get(id);
    if (!record || !mayAccess(viewer, record.owner_id)) throw notFound(id);
    return record;
  }

  /**
   * Refuses `next` (being created, or resumed) past its owner's caps: their count of monitors, and their
   * checks an hour — the scheduled ones of their active monitors plus the manual ones of the last hour.
   */
  private async assertWithinQuota(ownerId: string | undefined, next: MonitorRecord, creating: boolean): Promise<void> {
    const { monitors } = this.services.config.quotas;
    const others = (await this.store.list()).filter((record) => record.owner_id === ownerId && record.id !== next.id);
    if (creating && others.length >= monitors) throw quotaExceeded('monitors', monitors, 'quotas.monitors');
    this.assertChecksPerHour(
      scheduledChecksPerHour([...others, next]) + (await this.recentManualChecks(ownerId)).length,
    );
  }

  private assertChecksPerHour(perHour: number): void {
    const max = this.services.config.quotas.monitorChecksPerHour;
    if (perHour > max + 1e-9)
      throw quotaExceeded(
        'monitor checks an hour (scheduled, and manual in the last hour)',
        max,
        'quotas.monitorChecksPerHour',
      );
  }

  /** The owner's manual checks queued within the last hour (60 of the monitors' minutes). */
  private async recentManualChecks(ownerId: string | undefined): Promise<number[]> {
    const since = Date.now() - 60 * this.services.config.monitor.testOnlyMinuteMs;
    return (await this.store.manualChecks(ownerId ?? '')).filter((at) => at > since);
  }

  /**
   * Counts a manual check against its owner's checks an hour, or refuses it past the cap. A request that
   * joins a manual check still waiting to run adds no work and is not counted. Under the owner's lock.
   */
  private async countManualCheck(record: MonitorRecord): Promise<void> {
    const ownerId = record.owner_id ?? undefined;
    await this.store.locked(`owner:${ownerId ?? ''}`, async () => {
      const waiting = await this.services.jobs.get(manualJobId(record.id, record.seq));
      if (waiting && (waiting.status === 'queued' || waiting.status === 'processing')) return;
      const recent = await this.recentManualChecks(ownerId);
      const owned = (await this.store.list()).filter((other) => other.owner_id === record.owner_id);
      this.assertChecksPerHour(scheduledChecksPerHour(owned) + recent.length + 1);
      await this.store.putManualChecks(ownerId ?? '', [...recent, Date.now()]);
    });
  }

  async details(id: string, viewer: Principal | undefined): Promise<MonitorView> {
    const record = await this.owned(id, viewer);
    const [scheduled, manual, deliveries] = await Promise.all([
      this.services.jobs.get(scheduledJobId(id, record.seq)),
      this.services.jobs.get(manualJobId(id, record.seq)),
      this.alerts.liveStates(record),
    ]);
    const nextCheckAt = scheduled && scheduled.status === 'queued' ? (scheduled.runAt ?? scheduled.createdAt) : null;
    const checkInProgress =
      scheduled?.status === 'processing' || manual?.status === 'processing' || manual?.status === 'queued';
    return monitorView(record, { nextCheckAt, checkInProgress, deliveries });
  }

  async pause(id: string, viewer: Principal | undefined): Promise<void> {
    await this.owned(id, viewer);
    const { record } = await this.store.update(id, (current) =>
      current.status === 'paused' ? null : { ...current, status: 'paused' },
    );
    if (!record) throw notFound(id);
  }

  async resume(id: string, viewer: Principal | undefined): Promise<void> {
    const current = await this.owned(id, viewer);
    // Resuming puts its checks back into the owner's hourly budget.
    if (current.status === 'paused') {
      await this.store.locked(`owner:${current.owner_id ?? ''}`, () =>
        this.assertWithinQuota(current.owner_id, { ...current, status: 'active' }, false),
      );
    }
    // A new seq: the job of the state before the pause may have run (and skipped) meanwhile.
    const { record } = await this.store.update(id, (current) =>
      current.status === 'active' ? null : { ...current, status: 'active', seq: current.seq + 1 },
    );
    if (!record) throw notFound(id);
    await this.scheduler.ensureScheduled(record);
  }

  /** Queues a check of the monitor's current state now; answers at once. */
  async check(id: string, viewer: Principal | undefined): Promise<void> {
    let record = await this.owned(id, viewer);
    await this.countManualCheck(record);
    for (let tries = 0; tries < 2; tries++) {
      const input: CheckJobInput = { monitorId: id, seq: record.seq, manual: true, scheduledFor: null };
      const job = await this.services.jobs.submit(CHECK_JOB_KIND, input, { jobId: manualJobId(id, record.seq) });
      if (job.status !== 'completed' && job.status !== 'failed') return;
      // That state's manual check already ran. Fresh record: if it committed, seq moved on; if it failed, move it on.
      const seq = record.seq;
      const moved = await this.store.update(id, (current) =>
        current.seq === seq && job.status === 'failed' ? { ...current, seq: seq + 1 } : null,
      );
      if (!moved.record) throw notFound(id);
      record = moved.record;
      if (record.seq === seq) return;
      if (moved.changed) await this.scheduler.ensureScheduled(record);
    }
  }

  async results(id: string, limit: number, viewer: Principal | undefined): Promise<ResultView[]> {
    const record = await this.owned(id, viewer);
    return (await this.store.results(record.result_ids.slice(0, limit))).map(resultView);
  }

  async remove(id: string, viewer: Principal | undefined): Promise<void> {
    await this.owned(id, viewer);
    const removed = await this.store.remove(id);
    if (!removed) throw notFound(id);
    // Its schedule goes too: queued checks would find nothing, but need not wait for their time.
    await Promise.all(
      [scheduledJobId(id, removed.seq), manualJobId(id, removed.seq)].map((jobId) =>
        this.services.jobs.cancel(jobId).catch(() => null),
      ),
    );
    await this.alerts.cancelPending(removed);
  }
}
