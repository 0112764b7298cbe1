/**
 * The pages each key has had read through the Firecrawl surface (Firecrawl's
 * credits: one per Document, whether from scrape, search, crawl, batch scrape
 * or extract), for GET /team/credit-usage. Counted in this process and added
 * to one durable record per principal (the record store, under the record
 * mutex, so every instance adds to the same count) at most once a second and
 * when the area closes: a crawl of thousands of pages costs a write a second,
 * not one per page. Each record also keeps the pages by the calendar month
 * (UTC) they were counted in, for the historical usage routes.
 */
import type { Keyv } from 'keyv';
import { recordMutex, type RecordMutex } from '../../core/stores/record-mutex.js';
import type { Principal } from '../../core/principal.js';
import { monthOf, monthsFrom, periodOf } from './billing-periods.js';
import type { FirecrawlServices } from './uses.js';

/** How often counted pages are added to the durable records. */
const FLUSH_MS = 1000;
/** 2: pages by month (`months`). A version 1 record brought forward keeps its earlier pages in `before`. */
const RECORD_VERSION = 2;

export interface CreditRecord {
  v: number;
  pages: number;
  /** When this principal's first page was counted: the start of the (endless) counting period. */
  since: string;
  /** Pages by the month (UTC, "YYYY-MM") they were counted in; absent in version 1. */
  months?: Record<string, number>;
  /** The pages a version 1 record had counted, from `since` until it was brought forward, month unknown. */
  before?: { pages: number; until: string };
}

export interface CreditCount {
  pages: number;
  since: string | null;
}

/** Pages counted in one stretch of time: a calendar month, or a version 1 record's earlier count. */
export interface CreditPeriod {
  startDate: string;
  endDate: string;
  pages: number;
}

/** Pages counted and not yet written: by principal, then by month. */
type Pending = Map<string, Map<string, number>>;

const keyOf = (principalId: string): string => `firecrawl:credits:${principalId}`;

export class CreditLedger {
  private pending: Pending = new Map();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly records: Keyv,
    private readonly mutex: RecordMutex,
  ) {}

  /** Counts pages read for caller (nothing for a call that acts for no one). */
  add(caller: Principal | undefined, pages: number): void {
    if (!caller || pages <= 0) return;
    addPending(this.pending, caller.id, monthOf(new Date()), pages);
    // A failed write keeps its pages pending (write below), so the timer's flush has nothing to report.
    this.timer ??= setTimeout(() => void this.flush(), FLUSH_MS).unref();
  }

  /** The caller's count, with what this process has counted and not yet written. */
  async count(caller: Principal | undefined): Promise<CreditCount> {
    if (!caller) return { pages: 0, since: null };
    const stored = await this.stored(caller.id);
    return { pages: stored?.pages ?? 0, since: stored?.since ?? null };
  }

  /**
   * The caller's pages by billing period, oldest first: every calendar month from the first counted to the current
   * one (months without pages included), after a version 1 record's earlier count; the current month alone for a
   * caller with nothing counted.
   */
  async history(caller: Principal | undefined, now = new Date()): Promise<CreditPeriod[]> {
    const stored = caller ? await this.stored(caller.id) : undefined;
    const months = stored?.months ?? {};
    // Another instance's clock may be a little ahead: a month later than this one's still counts.
    const counted = Object.keys(months).sort();
    const current = monthOf(now);
    const last = [...counted, current].sort().at(-1)!;
    const periods: CreditPeriod[] = monthsFrom(counted[0] ?? current, last).map((month) => {
      const { startDate, endDate } = periodOf(month);
      return { startDate, endDate, pages: months[month] ?? 0 };
    });
    const before = stored && earlierCount(stored, now);
    return before ? [{ startDate: stored.since, endDate: before.until, pages: before.pages }, ...periods] : periods;
  }

  /** The principal's record, with what this process has counted written first. */
  private async stored(principalId: string): Promise<CreditRecord | undefined> {
    await this.flush();
    return (await this.records.get(keyOf(principalId))) as CreditRecord | undefined;
  }

  /** Adds what was counted to the durable records; one flush at a time, each waiting for the one before. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const counted = this.pending;
    this.pending = new Map();
    this.flushing = this.flushing.then(() => this.write(counted));
    return this.flushing;
  }

  /** Never rejects: pages whose write failed go back to pending for the next flush. */
  private async write(counted: Pending): Promise<void> {
    for (const [principalId, byMonth] of counted) {
      const key = keyOf(principalId);
      try {
        await this.mutex.run(key, async () => {
          const stored = (await this.records.get(key)) as CreditRecord | undefined;
          await this.records.set(key, withPages(stored, byMonth, new Date()));
        });
      } catch {
        for (const [month, pages] of byMonth) addPending(this.pending, principalId, month, pages);
      }
    }
  }
}

function addPending(pending: Pending, principalId: string, month: string, pages: number): void {
  const byMonth = pending.get(principalId) ?? new Map<string, number>();
  byMonth.set(month, (byMonth.get(month) ?? 0) + pages);
  pending.set(principalId, byMonth);
}

/** A version 1 record's pages, counted before months were kept: all of its count, from `since` until now. */
function earlierCount(stored: CreditRecord, now: Date): CreditRecord['before'] {
  return stored.before ?? (stored.months ? undefined : { pages: stored.pages, until: now.toISOString() });
}

/** Pure: the record with pages added by month; a version 1 record is brought forward, its count kept in `before`. */
export function withPages(stored: CreditRecord | undefined, byMonth: Map<string, number>, now: Date): CreditRecord {
  const months = { ...stored?.months };
  let added = 0;
  for (const [month, pages] of byMonth) {
    months[month] = (months[month] ?? 0) + pages;
    added += pages;
  }
  const before = stored && earlierCount(stored, now);
  return {
    v: RECORD_VERSION,
    pages: (stored?.pages ?? 0) + added,
    since: stored?.since ?? now.toISOString(),
    months,
    ...(before ? { before } : {}),
  };
}

/** One ledger per installation (its record store), whichever part of the area counts or reads. */
const ledgers = new WeakMap<Keyv, CreditLedger>();

export function creditLedgerOf(services: Pick<FirecrawlServices, 'stores'>): CreditLedger {
  const { records, redis } = services.stores;
  let ledger = ledgers.get(records);
  if (!ledger) {
    ledger = new CreditLedger(records, recordMutex(redis));
    ledgers.set(records, ledger);
  }
  return ledger;
}
