import { getEventListeners } from 'node:events';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { startDeadline } from './abort.js';

describe('startDeadline', () => {
  it('aborts with a TimeoutError when its time runs out, and says so', async () => {
    const deadline = startDeadline(5);
    await once(deadline.signal, 'abort');
    expect(deadline.expired).toBe(true);
    expect((deadline.signal.reason as DOMException).name).toBe('TimeoutError');
  });

  it("aborts with the parent's reason when the parent aborts first, and has not expired", () => {
    const parent = new AbortController();
    const deadline = startDeadline(60_000, parent.signal);
    parent.abort(new Error('caller left'));
    expect(deadline.signal.aborted).toBe(true);
    expect((deadline.signal.reason as Error).message).toBe('caller left');
    expect(deadline.expired).toBe(false);
    deadline.dispose();
  });

  it('starts aborted under a parent that already is', () => {
    const parent = new AbortController();
    parent.abort('gone');
    const deadline = startDeadline(60_000, parent.signal);
    expect(deadline.signal.aborted).toBe(true);
    expect(deadline.signal.reason).toBe('gone');
  });

  it('leaves a long-lived parent with no listener once disposed, however many calls ran under it', () => {
    // A crawl job's signal is the parent of thousands of fetches: AbortSignal.any kept one dependant per call
    // (nodejs/node#54614).
    const job = new AbortController();
    for (let call = 0; call < 1000; call++) startDeadline(60_000, job.signal).dispose();
    expect(getEventListeners(job.signal, 'abort')).toHaveLength(0);
  });

  it('gives a parent one listener however many calls run under it at once, and aborts them all', () => {
    // One listener each would pass the limit of ten and warn (MaxListenersExceededWarning) for a search's scrapes.
    const search = new AbortController();
    const calls = Array.from({ length: 20 }, () => startDeadline(60_000, search.signal));
    expect(getEventListeners(search.signal, 'abort')).toHaveLength(1);
    calls[0]!.dispose();
    search.abort(new Error('client left'));
    expect(
      calls.slice(1).every((call) => call.signal.aborted && (call.signal.reason as Error).message === 'client left'),
    ).toBe(true);
    expect(calls[0]!.signal.aborted).toBe(false);
    for (const call of calls) call.dispose();
  });

  it('lets go of the parent when the last call under it ends, and follows it again for the next', () => {
    const job = new AbortController();
    const first = startDeadline(60_000, job.signal);
    const second = startDeadline(60_000, job.signal);
    first.dispose();
    expect(getEventListeners(job.signal, 'abort')).toHaveLength(1);
    second.dispose();
    expect(getEventListeners(job.signal, 'abort')).toHaveLength(0);
    const third = startDeadline(60_000, job.signal);
    job.abort('stopped');
    expect(third.signal.reason).toBe('stopped');
  });

  it('never fires after dispose', async () => {
    const deadline = startDeadline(1);
    deadline.dispose();
    const later = startDeadline(20);
    await once(later.signal, 'abort');
    expect(deadline.signal.aborted).toBe(false);
    expect(deadline.expired).toBe(false);
  });
});
