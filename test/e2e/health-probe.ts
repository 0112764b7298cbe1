/**
 * Measures whether the server stays responsive while an attack runs: GET
 * /healthz is asked again and again, each one timed from send to answer,
 * until the attack settles. The product promises an answer within 1 s.
 */
export const HEALTH_DEADLINE_MS = 1000;

export interface ProbeReport<T> {
  result: T;
  /** Slowest /healthz answer while the attack ran (ms). */
  worstHealthMs: number;
  probes: number;
}

export interface ProbeOptions {
  /**
   * Time each probe from when it was due, not from when it was sent. Quarry
   * runs in the test's process, so a blocked event loop also delays sending a
   * probe, and only this timing counts that wait (as an outside client would see it).
   */
  fromDue?: boolean;
}

export async function whileProbingHealth<T>(baseUrl: string, attack: () => Promise<T>, options: ProbeOptions = {}): Promise<ProbeReport<T>> {
  let done = false;
  let worst = 0;
  let probes = 0;
  const probing = (async () => {
    let due = performance.now();
    // At least one probe, even when the attack is over at once.
    do {
      if (!options.fromDue) due = performance.now();
      const response = await fetch(`${baseUrl}/healthz`, { signal: AbortSignal.timeout(30_000) });
      await response.text();
      worst = Math.max(worst, performance.now() - due);
      probes++;
      due = performance.now() + 50;
      if (!done) await new Promise((resolve) => setTimeout(resolve, 50));
    } while (!done);
  })();
  let result: T;
  try {
    result = await attack();
  } finally {
    done = true;
    await probing;
  }
  return { result, worstHealthMs: Math.round(worst), probes };
}

