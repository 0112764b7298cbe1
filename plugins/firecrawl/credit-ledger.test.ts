import Keyv from 'keyv';
import { describe, expect, it } from 'vitest';
import { recordMutex } from '../../core/stores/record-mutex.js';
import { CreditLedger, withPages, type CreditRecord } from './credit-ledger.js';

const alice = { id: 'key:alice', admin: false };
const now = new Date('2026-12-03T12:00:00.000Z');

describe('withPages', () => {
  it('adds pages to their months and to the total; the first write starts the count', () => {
    const first = withPages(undefined, new Map([['2026-11', 3]]), now);
    expect(first).toEqual({ v: 2, pages: 3, since: now.toISOString(), months: { '2026-11': 3 } });
    const next = withPages(
      first,
      new Map([
        ['2026-11', 1],
        ['2026-12', 5],
      ]),
      now,
    );
    expect(next).toEqual({ v: 2, pages: 9, since: now.toISOString(), months: { '2026-11': 4, '2026-12': 5 } });
  });

  it('brings a version 1 record forward: its count stays, in `before` (month unknown), until the write', () => {
    const v1: CreditRecord = { v: 1, pages: 40, since: '2026-10-15T08:00:00.000Z' };
    const brought = withPages(v1, new Map([['2026-12', 2]]), now);
    expect(brought).toEqual({
      v: 2,
      pages: 42,
      since: v1.since,
      months: { '2026-12': 2 },
      before: { pages: 40, until: now.toISOString() },
    });
    // Written again later, `before` is kept as it was.
    expect(withPages(brought, new Map([['2026-12', 1]]), new Date('2026-12-04T00:00:00.000Z')).before).toEqual(
      brought.before,
    );
  });
});

describe('CreditLedger.history', () => {
  const ledger = () => new CreditLedger(new Keyv(), recordMutex(null));
  /** A ledger whose store holds alice's record as given. */
  async function holding(record: CreditRecord): Promise<CreditLedger> {
    const records = new Keyv();
    await records.set('firecrawl:credits:key:alice', record);
    return new CreditLedger(records, recordMutex(null));
  }

  it('answers every month from the first counted to the current one, months without pages as 0', async () => {
    const credits = await holding({
      v: 2,
      pages: 7,
      since: '2026-09-20T00:00:00.000Z',
      months: { '2026-09': 4, '2026-11': 3 },
    });
    expect(await credits.history(alice, now)).toEqual([
      { startDate: '2026-09-01T00:00:00.000Z', endDate: '2026-09-30T23:59:59.999Z', pages: 4 },
      { startDate: '2026-10-01T00:00:00.000Z', endDate: '2026-10-31T23:59:59.999Z', pages: 0 },
      { startDate: '2026-11-01T00:00:00.000Z', endDate: '2026-11-30T23:59:59.999Z', pages: 3 },
      { startDate: '2026-12-01T00:00:00.000Z', endDate: '2026-12-31T23:59:59.999Z', pages: 0 },
    ]);
  });

  it("keeps a month another instance's clock already reached, so the periods still add up to the count", async () => {
    const credits = await holding({
      v: 2,
      pages: 5,
      since: '2026-12-31T23:59:59.000Z',
      months: { '2026-12': 2, '2027-01': 3 },
    });
    const periods = await credits.history(alice, now);
    expect(periods.map((period) => [period.startDate.slice(0, 7), period.pages])).toEqual([
      ['2026-12', 2],
      ['2027-01', 3],
    ]);
  });

  it('counts pages into the month they were counted in, pending ones included', async () => {
    const credits = ledger();
    credits.add(alice, 2);
    credits.add(alice, 1);
    const periods = await credits.history(alice);
    expect(periods.at(-1)?.pages).toBe(3);
    expect((await credits.count(alice)).pages).toBe(3);
  });

  it("reads a version 1 record's count as one period from its start until now, then the current month", async () => {
    const credits = await holding({ v: 1, pages: 40, since: '2026-10-15T08:00:00.000Z' });
    expect(await credits.history(alice, now)).toEqual([
      { startDate: '2026-10-15T08:00:00.000Z', endDate: now.toISOString(), pages: 40 },
      { startDate: '2026-12-01T00:00:00.000Z', endDate: '2026-12-31T23:59:59.999Z', pages: 0 },
    ]);
  });

  it('answers the current month with 0 for a caller with nothing counted, and for no caller', async () => {
    const credits = ledger();
    const current = [{ startDate: '2026-12-01T00:00:00.000Z', endDate: '2026-12-31T23:59:59.999Z', pages: 0 }];
    expect(await credits.history(alice, now)).toEqual(current);
    expect(await credits.history(undefined, now)).toEqual(current);
  });
});
