/**
 * One check of a monitor, run as a job (kind monitor.check, lane
 * "monitors"): search, keep what the monitor has not seen, analyse, store a
 * result, alert. At least once, with one outcome:
 *
 * - Everything the check decides is committed in one step under the
 *   monitor's lock, and only if the monitor is still in the state the job
 *   was queued for (`seq`): a second check of the same state (a manual one
 *   racing the scheduled one, a run repeated after a crash while another
 *   committed) finds it moved on and leaves no trace.
 * - The seen-set is written just before the monitor, its new entries tagged
 *   with the commit's number: entries of a check that died between the two
 *   writes are not counted as seen, so a crash never swallows an alert.
 * - After the commit the alert is handed to the webhook mechanism and the
 *   next check queued; a run repeated after a crash in between finds its
 *   own commit (last_commit_job) and does just that.
 *
 * A check that cannot search (every engine failed) or runs out of time
 * still commits, with last_check saying so, so the schedule moves on.
 */
import { createHash } from 'node:crypto';
import type { CallContext } from '../../core/capability.js';
import { AppError, toAppError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import type { JobHandlerContext } from '../../core/plugin.js';
import type { LlmTiers } from '../../services/llm/registry.js';
import { searchInputSchema, type SearchAnswer } from '../../services/web-search/schemas.js';
import type { WebSearch } from '../../services/web-search/web-search.js';
import { extractiveSummary, modelSummary, titlesLine, type Analysis } from './analysis.js';
import { alertMessageId, ALERTS_KEPT, type MonitorAlerts } from './alerts.js';
import { isRelevant, monitorQuery, onSources, urlKey } from './query.js';
import type { ReadPages } from './read-pages.js';
import type { CheckJobInput } from './schedule.js';
import type { MonitorScheduler } from './scheduler.js';
import type { NewResult } from './schemas.js';
import type { LastCheck, MonitorRecord, MonitorStore, SeenEntry, StoredResult } from './store.js';
import { modelFor } from '../../services/llm/model-choice.js';

export interface CheckSettings {
  timeoutMs: number;
  resultsPerCheck: number;
  keepResults: number;
  seenUrls: number;
  deepAnalysisPages: number;
}

export interface CheckDeps {
  store: MonitorStore;
  scheduler: MonitorScheduler;
  alerts: MonitorAlerts;
  search: Pick<WebSearch, 'search'>;
  readPages: ReadPages;
  llm: LlmTiers;
  settings: CheckSettings;
  logger: Logger;
  onChecked?(event: {
    monitorId: string;
    scheduledFor: number | null;
    startedAt: number;
    finishedAt: number;
    newResults: number;
  }): void;
}

export type CheckOutcome =
  | { outcome: 'committed'; result_id: string | null; new_results: number }
  | { outcome: 'skipped'; reason: 'deleted' | 'superseded' | 'paused' };

/** What a check found, before it is committed. */
interface Findings {
  found: NewResult[];
  fresh: NewResult[];
  baseline: boolean;
  lastCheck: LastCheck;
  result: StoredResult | null;
  alert: boolean;
}

/** The result id of a job's check: the same on every run of the job. */
export function resultIdOf(jobId: string): string {
  return `res_${createHash('sha256').update(jobId).digest('hex').slice(0, 24)}`;
}

export async function runCheck(deps: CheckDeps, input: CheckJobInput, job: JobHandlerContext): Promise<CheckOutcome> {
  const startedAt = Date.now();
  const monitor = await deps.store.get(input.monitorId);
  if (!monitor) return { outcome: 'skipped', reason: 'deleted' };
  await deps.alerts.flush(monitor);
  if (monitor.last_commit_job === job.id) {
    // This job committed before the process died: only the follow-ups are left.
    await deps.scheduler.ensureScheduled(monitor);
    return {
      outcome: 'committed',
      result_id: monitor.result_ids[0] ?? null,
      new_results: monitor.last_check?.new_results ?? 0,
    };
  }
  if (monitor.seq !== input.seq) {
    await deps.scheduler.ensureScheduled(monitor);
    return { outcome: 'skipped', reason: 'superseded' };
  }
  if (!input.manual && monitor.status === 'paused') return { outcome: 'skipped', reason: 'paused' };

  const findings = await investigate(deps, monitor, job, new Date(startedAt));
  const committed = await commit(deps, monitor, input, job.id, findings);
  if (!committed) {
    if (findings.result) await deps.store.deleteResults([findings.result.id]);
    return { outcome: 'skipped', reason: 'superseded' };
  }
  await deps.alerts.flush(committed);
  await deps.scheduler.ensureScheduled(committed);
  deps.onChecked?.({
    monitorId: monitor.id,
    scheduledFor: input.scheduledFor,
    startedAt,
    finishedAt: Date.now(),
    newResults: findings.fresh.length,
  });
  return { outcome: 'committed', result_id: findings.result?.id ?? null, new_results: findings.fresh.length };
}

/** Search, filter against the committed seen-set, analyse: nothing is written. */
async function investigate(
  deps: CheckDeps,
  monitor: MonitorRecord,
  job: JobHandlerContext,
  at: Date,
): Promise<Findings> {
  const deadline = AbortSignal.timeout(deps.settings.timeoutMs);
  const signal = AbortSignal.any([job.signal, deadline]);
  const lastCheck: LastCheck = {
    at: at.toISOString(),
    status: 'ok',
    results_found: 0,
    new_results: 0,
    engines_failed: [],
    error: null,
  };
  let answer: SearchAnswer;
  try {
    answer = await search(deps, monitor, signal);
  } catch (error) {
    // The instance is stopping or the job was cancelled: hand the job back rather than commit a failure.
    if (job.signal.aborted) throw error;
    const appError = toAppError(error);
    return {
      found: [],
      fresh: [],
      baseline: false,
      result: null,
      alert: false,
      lastCheck: { ...lastCheck, status: 'failed', error: `${appError.code}: ${appError.message}` },
    };
  }
  const meta = answer.search_metadata;
  lastCheck.engines_failed = meta.engines_failed;
  if (meta.engines_succeeded.length === 0 && meta.engines_failed.length > 0) {
    lastCheck.status = 'failed';
    lastCheck.error = `every engine failed: ${meta.engines_failed.map((engine) => `${engine} (${meta.engine_errors[engine]?.code ?? 'error'})`).join(', ')}`;
  } else if (meta.engines_failed.length > 0) lastCheck.status = 'partial';

  const byKey = new Map<string, NewResult>();
  for (const item of answer.results) {
    if (!onSources(item.url, monitor.sources) || !isRelevant(monitor, item)) continue;
    const key = urlKey(item.url);
    if (!byKey.has(key)) byKey.set(key, { title: item.title, url: item.url, snippet: item.snippet });
  }
  const committedSeen = new Set(
    (await deps.store.seen(monitor.id)).filter(([, commit]) => commit <= monitor.commits).map(([key]) => key),
  );
  const found = [...byKey.values()];
  const fresh = [...byKey.entries()].filter(([key]) => !committedSeen.has(key)).map(([, item]) => item);
  // The first check whose search worked records what already exists.
  const baseline = !monitor.baseline_done;
  lastCheck.results_found = found.length;
  lastCheck.new_results = fresh.length;
  if (fresh.length === 0) return { found, fresh, baseline, lastCheck, result: null, alert: false };

  const analysis = await analyse(deps, monitor, fresh, baseline, signal);
  // Stopping (or cancelled) while analysing: hand the job back rather than commit a cut-short analysis.
  if (job.signal.aborted) throw new AppError('CANCELLED', 'the check was interrupted');
  if (deadline.aborted && !job.signal.aborted) lastCheck.status = 'partial';
  const result: StoredResult = {
    id: resultIdOf(job.id),
    monitor_id: monitor.id,
    timestamp: at.toISOString(),
    new_results: fresh,
    analysis: analysis.analysis,
    analysis_method: analysis.method,
    model_used: analysis.model,
    baseline,
  };
  const alert = monitor.webhook_url !== null && (!baseline || monitor.alert_on_first_check);
  return { found, fresh, baseline, lastCheck, result, alert };
}

async function search(deps: CheckDeps, monitor: MonitorRecord, signal: AbortSignal): Promise<SearchAnswer> {
  const input = searchInputSchema.parse({
    query: monitorQuery(monitor),
    ...(monitor.engines ? { engines: monitor.engines } : {}),
    max_results: deps.settings.resultsPerCheck,
    scrape_content: false,
    cache_ttl: 0,
    relevance_filter: false,
    include_images: false,
    include_links: false,
    // Engines get at most half of the check's time; reading pages and the analysis the rest.
    timeout: Math.max(1, Math.min(30, Math.floor(deps.settings.timeoutMs / 2000))),
  });
  const ctx: CallContext = { signal, logger: deps.logger, progress: () => undefined, host: 'job' };
  const answer = await deps.search.search(input, ctx);
  if (signal.aborted) throw new AppError('TIMEOUT', 'the check ran out of time while searching');
  return answer;
}

async function analyse(
  deps: CheckDeps,
  monitor: MonitorRecord,
  fresh: NewResult[],
  baseline: boolean,
  signal: AbortSignal,
): Promise<Analysis> {
  if (!monitor.deep_analysis) return { analysis: titlesLine(fresh, baseline), method: 'titles', model: null };
  const toRead = fresh.slice(0, deps.settings.deepAnalysisPages);
  const pages = await deps
    .readPages(
      toRead.map((item) => item.url),
      signal,
    )
    .catch((error: unknown) => {
      deps.logger.warn(
        { monitor: monitor.id, err: (error as Error).message },
        'reading the new pages failed; the analysis uses their snippets',
      );
      return [];
    });
  const client = modelFor(deps.llm, 'monitor-summary');
  if (client && !signal.aborted) {
    try {
      return await modelSummary(client, monitor, fresh, pages, signal);
    } catch (error) {
      deps.logger.warn(
        { monitor: monitor.id, err: (error as Error).message },
        'the model could not summarise; the analysis is extractive',
      );
    }
  }
  return { analysis: await extractiveSummary(monitor, fresh, pages, baseline), method: 'extractive', model: null };
}

/** The one step that makes a check count; null when the monitor moved on (or is gone) meanwhile. */
async function commit(
  deps: CheckDeps,
  seen: MonitorRecord,
  input: CheckJobInput,
  jobId: string,
  findings: Findings,
): Promise<MonitorRecord | null> {
  const { result } = findings;
  // Written before the monitor, and invisible until the monitor lists it.
  if (result) await deps.store.putResult(result);
  return deps.store.locked(seen.id, async () => {
    const current = await deps.store.get(seen.id);
    if (!current || current.seq !== input.seq) return null;
    const number = current.commits + 1;
    const addKeys = (findings.baseline ? findings.found : findings.fresh).map((item) => urlKey(item.url));
    if (addKeys.length > 0) {
      const entries: SeenEntry[] = (await deps.store.seen(current.id)).filter(
        ([, commit]) => commit <= current.commits,
      );
      const present = new Set(entries.map(([key]) => key));
      for (const key of addKeys) if (!present.has(key)) entries.push([key, number]);
      await deps.store.putSeen(current.id, entries.slice(-deps.settings.seenUrls));
    }
    const resultIds = result ? [result.id, ...current.result_ids] : current.result_ids;
    const evicted = resultIds.slice(deps.settings.keepResults);
    const alerts =
      findings.alert && result
        ? [
            {
              webhook_id: alertMessageId(result.id),
              result_id: result.id,
              created_at: result.timestamp,
              enqueued: false,
            },
            ...current.alerts,
          ]
        : current.alerts;
    const checkedAt = findings.lastCheck.at;
    const next: MonitorRecord = {
      ...current,
      seq: current.seq + 1,
      commits: number,
      last_commit_job: jobId,
      last_checked: current.last_checked && current.last_checked > checkedAt ? current.last_checked : checkedAt,
      result_ids: resultIds.slice(0, deps.settings.keepResults),
      alerts: alerts.slice(0, ALERTS_KEPT),
      last_check: findings.lastCheck,
      checks_run: current.checks_run + 1,
      baseline_done: current.baseline_done || findings.lastCheck.status !== 'failed',
    };
    await deps.store.put(next);
    if (evicted.length > 0) await deps.store.deleteResults(evicted);
    return next;
  });
}
