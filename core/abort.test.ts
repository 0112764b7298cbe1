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
    // A crawl job's signal is the parent of thousands of fetches: AbortSignal.any kept one dependant per call (nodejs/node#54614).
    const job = new AbortController();
    for (let call = 0; call < 1000; call++) startDeadline(60_000, job.signal).dispose();
    expect(getEventListeners(job.signal, 'abort')).toHaveLength(0);
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
