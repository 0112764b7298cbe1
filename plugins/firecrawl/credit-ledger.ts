/**
 * The pages each key has had read through the Firecrawl surface (Firecrawl's
 * credits: one per Document, whether from scrape, search, crawl, batch scrape
 * or extract), for GET /team/credit-usage. Counted in this process and added
 * to one durable record per principal (the record store, under the record
 * mutex, so every instance adds to the same count) at most once a second and
 * when the area closes: a crawl of thousands of pages costs a write a second,
 * not one per page.
 */
import type { Keyv } from 'keyv';
import { recordMutex, type RecordMutex } from '../../core/stores/record-mutex.js';
import type { Principal } from '../../core/principal.js';
import type { FirecrawlServices } from './uses.js';

/** How often counted pages are added to the durable records. */
const FLUSH_MS = 1000;
const RECORD_VERSION = 1;

interface CreditRecord {
  v: number;
  pages: number;
  /** When this principal's first page was counted: the start of the (endless) counting period. */
  since: string;
}

export interface CreditCount {
  pages: number;
  since: string | null;
}

const keyOf = (principalId: string): string => `firecrawl:credits:${principalId}`;

export class CreditLedger {
  private readonly pending = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly records: Keyv,
    private readonly mutex: RecordMutex,
  ) {}

  /** Counts pages read for caller (nothing for a call that acts for no one). */
  add(caller: Principal | undefined, pages: number): void {
    if (!caller || pages <= 0) return;
    this.pending.set(caller.id, (this.pending.get(caller.id) ?? 0) + pages);
    // A failed write keeps its pages pending (write below), so the timer's flush has nothing to report.
    this.timer ??= setTimeout(() => void this.flush(), FLUSH_MS).unref();
  }

  /** The caller's count, with what this process has counted and not yet written. */
  async count(caller: Principal | undefined): Promise<CreditCount> {
    if (!caller) return { pages: 0, since: null };
    await this.flush();
    const stored = (await this.records.get(keyOf(caller.id))) as CreditRecord | undefined;
    return { pages: stored?.pages ?? 0, since: stored?.since ?? null };
  }

  /** Adds what was counted to the durable records; one flush at a time, each waiting for the one before. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const counted = [...this.pending];
    this.pending.clear();
    this.flushing = this.flushing.then(() => this.write(counted));
    return this.flushing;
  }

  /** Never rejects: pages whose write failed go back to pending for the next flush. */
  private async write(counted: Array<[string, number]>): Promise<void> {
    for (const [principalId, pages] of counted) {
      const key = keyOf(principalId);
      try {
        await this.mutex.run(key, async () => {
          const stored = (await this.records.get(key)) as CreditRecord | undefined;
          const since = stored?.since ?? new Date().toISOString();
          await this.records.set(key, { v: RECORD_VERSION, pages: (stored?.pages ?? 0) + pages, since });
        });
      } catch {
        this.pending.set(principalId, (this.pending.get(principalId) ?? 0) + pages);
      }
    }
  }
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
