import { describe, expect, it } from 'vitest';
import { GiveUp, until } from './until.js';

describe('until', () => {
  it('answers the first truthy value, polling again after a falsy one or a throw', async () => {
    const answers: Array<() => unknown> = [
      () => undefined,
      () => {
        throw new Error('down');
      },
      () => false,
      () => 'ready',
    ];
    let polls = 0;
    const value = await until('ready', async () => answers[polls++]!() as string | undefined, 5000, 1);
    expect(value).toBe('ready');
    expect(polls).toBe(4);
  });

  it('names what it waited for and the last failed attempt when it times out', async () => {
    let polls = 0;
    const waiting = until(
      'the job',
      async () => {
        polls++;
        throw new Error(`still pending after ${polls} polls`);
      },
      30,
      1,
    );
    await expect(waiting).rejects.toThrow(/^waited 30 ms for the job; last attempt: still pending after \d+ polls$/);
  });

  it('does not blame an old failure when the last attempt answered "not yet"', async () => {
    let polls = 0;
    const waiting = until(
      'the job',
      async () => {
        if (polls++ === 0) throw new Error('down at first');
        return false;
      },
      30,
      1,
    );
    await expect(waiting).rejects.toThrow(/^waited 30 ms for the job$/);
  });

  it('reads a description given as a function only when it times out', async () => {
    let last = 'nothing';
    let reads = 0;
    const waiting = until(
      () => {
        reads++;
        return `the batch; last seen ${last}`;
      },
      async () => {
        last = 'processing';
        return undefined;
      },
      30,
      1,
    );
    await expect(waiting).rejects.toThrow('waited 30 ms for the batch; last seen processing');
    expect(reads).toBe(1);
  });

  it('stops at once with the probe’s GiveUp', async () => {
    let polls = 0;
    const started = performance.now();
    const waiting = until(
      'a process that exited',
      async () => {
        polls++;
        throw new GiveUp('the process exited with 1');
      },
      10_000,
      1,
    );
    await expect(waiting).rejects.toThrow(GiveUp);
    await expect(waiting).rejects.toThrow('the process exited with 1');
    expect(polls).toBe(1);
    expect(performance.now() - started).toBeLessThan(5000);
  });
});
