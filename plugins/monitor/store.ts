/**
 * Monitors, their results and seen-sets in the durable record store
 * (SQLite under the data directory, or Redis). Every change to a monitor is
 * a read-modify-write under the record mutex (in this process, or a lock
 * with expiry on Redis), so a check committing, a pause and a delivery
 * being counted never overwrite each other, whichever instance does them.
 *
 * Keys: `monitor:<id>` (the monitor and its scheduling state),
 * `monitor-seen:<id>` (normalised URL keys it has alerted on or recorded),
 * `monitor-result:<id>` (one stored result), and the id index "monitors".
 */
import type { Keyv } from 'keyv';
import type { RecordMutex } from '../../core/stores/record-mutex.js';
import { addId, listIds, removeId } from '../../core/stores/record-index.js';
import type { NewResult } from './schemas.js';

export interface AlertEntry {
  /** The webhook-id of the alert's message. */
  webhook_id: string;
  result_id: string;
  created_at: string;
  /** Handed to the delivery mechanism (a durable job); until then a check or the sweep enqueues it. */
  enqueued: boolean;
  /** Set once when the delivery settles: the final state, kept after the delivery job expires. */
  settled?: {
    status: 'delivered' | 'failed';
    attempts: number;
    last_error: string | null;
    delivered_at: string | null;
  };
}

export interface LastCheck {
  at: string;
  status: 'ok' | 'partial' | 'failed';
  results_found: number;
  new_results: number;
  engines_failed: string[];
  error: string | null;
}

export interface MonitorRecord {
  id: string;
  /**
   * The principal that created it (core/principal.ts); absent on monitors made before ownership existed (admins only).
   */
  owner_id?: string;
  topic: string;
  keywords: string[];
  sources: string[] | null;
  check_interval_minutes: number;
  webhook_url: string | null;
  deep_analysis: boolean;
  engines: string[] | null;
  alert_on_first_check: boolean;
  status: 'active' | 'paused';
  created_at: string;
  last_checked: string | null;
  alerts_sent: number;
  /** The monitor's own whsec_ secret; null when alerts are signed with the global one (or there is no webhook). */
  secret: string | null;
  /** Scheduling generation: the next scheduled check is the job check_<id>_<seq> (schedule.ts). */
  seq: number;
  /** Checks committed; seen-set entries tagged with a higher number belong to a check that never committed. */
  commits: number;
  /** The job whose check committed last: a re-run of it after a crash finishes the commit's follow-ups. */
  last_commit_job: string | null;
  /** Stored results, newest first. */
  result_ids: string[];
  /** Alerts, newest first (the delivery log shown on the monitor). */
  alerts: AlertEntry[];
  last_check: LastCheck | null;
  checks_run: number;
  /** A check has searched successfully (the first such one records the baseline). */
  baseline_done: boolean;
}

export interface StoredResult {
  id: string;
  monitor_id: string;
  timestamp: string;
  new_results: NewResult[];
  analysis: string;
  analysis_method: 'llm' | 'extractive' | 'titles';
  model_used: string | null;
  baseline: boolean;
}

/** [url key, number of the commit that added it]. */
export type SeenEntry = [string, number];

const INDEX = 'monitors';
const monitorKey = (id: string) => `monitor:${id}`;
const seenKey = (id: string) => `monitor-seen:${id}`;
const resultKey = (id: string) => `monitor-result:${id}`;
const manualChecksKey = (ownerId: string) => `monitor-manual-checks:${ownerId}`;

export class MonitorStore {
  constructor(
    private readonly records: Keyv,
    private readonly mutex: RecordMutex,
  ) {}

  async create(record: MonitorRecord): Promise<void> {
    // Record first, index second: a crash in between leaves a record nobody lists, never a listed id without a record.
    await this.records.set(monitorKey(record.id), record);
    await addId(this.records, INDEX, record.id);
  }

  async get(id: string): Promise<MonitorRecord | null> {
    return ((await this.records.get(monitorKey(id))) as MonitorRecord | undefined) ?? null;
  }

  /** Every monitor, oldest first. */
  async list(): Promise<MonitorRecord[]> {
    const ids = await listIds(this.records, INDEX);
    const found = await Promise.all(ids.map((id) => this.get(id)));
    return found.filter((record): record is MonitorRecord => record !== null);
  }

  /**
   * Read-modify-write under the monitor's lock: `change` gets the current
   * record and answers the new one, or null to leave it. Answers what is
   * stored afterwards (null when the monitor does not exist).
   */
  async update(
    id: string,
    change: (current: MonitorRecord) => MonitorRecord | null | Promise<MonitorRecord | null>,
  ): Promise<{ record: MonitorRecord | null; changed: boolean }> {
    return this.mutex.run(monitorKey(id), async () => {
      const current = await this.get(id);
      if (!current) return { record: null, changed: false };
      const next = await change(current);
      if (!next) return { record: current, changed: false };
      await this.records.set(monitorKey(id), next);
      return { record: next, changed: true };
    });
  }

  /** Runs `work` under the monitor's lock (for changes that span the monitor and its seen-set). */
  locked<T>(id: string, work: () => Promise<T>): Promise<T> {
    return this.mutex.run(monitorKey(id), work);
  }

  /** Writes the monitor; only inside locked(). */
  async put(record: MonitorRecord): Promise<void> {
    await this.records.set(monitorKey(record.id), record);
  }

  /** Removes the monitor with its seen-set and results; false when it did not exist. */
  async remove(id: string): Promise<MonitorRecord | null> {
    const removed = await this.mutex.run(monitorKey(id), async () => {
      const current = await this.get(id);
      if (!current) return null;
      // The index first: from then on the monitor is gone for every reader, whatever is left to delete.
      await removeId(this.records, INDEX, id);
      await this.records.delete(monitorKey(id));
      return current;
    });
    if (removed) {
      await this.records.delete(seenKey(id));
      await Promise.all(removed.result_ids.map((resultId) => this.records.delete(resultKey(resultId))));
    }
    return removed;
  }

  async seen(id: string): Promise<SeenEntry[]> {
    const stored = (await this.records.get(seenKey(id))) as SeenEntry[] | undefined;
    return Array.isArray(stored) ? stored : [];
  }

  async putSeen(id: string, entries: SeenEntry[]): Promise<void> {
    await this.records.set(seenKey(id), entries);
  }

  async putResult(result: StoredResult): Promise<void> {
    await this.records.set(resultKey(result.id), result);
  }

  async result(id: string): Promise<StoredResult | null> {
    return ((await this.records.get(resultKey(id))) as StoredResult | undefined) ?? null;
  }

  async results(ids: string[]): Promise<StoredResult[]> {
    const found = await Promise.all(ids.map((id) => this.result(id)));
    return found.filter((result): result is StoredResult => result !== null);
  }

  /**
   * When the owner's manual checks were queued (ms since the epoch), for the checks-an-hour quota; '' is the owner of
   * unowned monitors.
   */
  async manualChecks(ownerId: string): Promise<number[]> {
    const stored = (await this.records.get(manualChecksKey(ownerId))) as number[] | undefined;
    return Array.isArray(stored) ? stored : [];
  }

  /** Writes the owner's manual check times; only under the owner's lock. */
  async putManualChecks(ownerId: string, times: number[]): Promise<void> {
    await this.records.set(manualChecksKey(ownerId), times);
  }

  async deleteResults(ids: string[]): Promise<void> {
    await Promise.all(ids.map((id) => this.records.delete(resultKey(id))));
  }
}
