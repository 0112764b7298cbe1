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

export async function whileProbingHealth<T>(baseUrl: string, attack: () => Promise<T>): Promise<ProbeReport<T>> {
  let done = false;
  let worst = 0;
  let probes = 0;
  const probing = (async () => {
    // At least one probe, even when the attack is over at once.
    do {
      const started = performance.now();
      const response = await fetch(`${baseUrl}/healthz`, { signal: AbortSignal.timeout(30_000) });
      await response.text();
      worst = Math.max(worst, performance.now() - started);
      probes++;
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

