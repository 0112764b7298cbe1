/**
 * The client side of bench:search's latency rounds, in a process of its own
 * (search.bench.ts forks it), as its throughput clients and its engines are:
 * each round fetches the engines' own URLs in parallel (the floor), then runs
 * one search against the server, with one client for both. The floor reads
 * 1.2 MB of engine pages a round; read in the server's process, that garbage
 * was collected during the searches and charged to the server.
 *
 * It gets one RoundPlan message and answers with one RoundTimes message.
 */
import type { HttpRequestSpec } from '../core/engine.js';

export interface RoundPlan {
  engineRequests: HttpRequestSpec[];
  searchUrl: string;
  headers: Record<string, string>;
  body: string;
  rounds: number;
  warmup: number;
  /** How many engines must succeed in every search. */
  engines: number;
}

export type RoundTimes = { floor: number[]; service: number[] } | { error: string };

async function run(plan: RoundPlan): Promise<RoundTimes> {
  const floor: number[] = [];
  const service: number[] = [];
  for (let round = 0; round < plan.rounds + plan.warmup; round++) {
    const f0 = performance.now();
    await Promise.all(
      plan.engineRequests.map(async (r) => {
        const res = await fetch(r.url, {
          method: r.method,
          headers: r.headers ?? {},
          ...(r.body ? { body: r.body } : {}),
        });
        await res.text();
      }),
    );
    const f1 = performance.now();
    const res = await fetch(plan.searchUrl, { method: 'POST', headers: plan.headers, body: plan.body });
    const answer = (await res.json()) as { search_metadata?: { engines_succeeded: string[] } };
    const s1 = performance.now();
    if (res.status !== 200 || answer.search_metadata?.engines_succeeded.length !== plan.engines) {
      return { error: `search failed: ${res.status} ${JSON.stringify(answer).slice(0, 300)}` };
    }
    if (round >= plan.warmup) {
      floor.push(f1 - f0);
      service.push(s1 - f1);
    }
  }
  return { floor, service };
}

process.once('message', (plan: RoundPlan) => {
  void run(plan)
    .catch((error: unknown) => ({ error: error instanceof Error ? error.message : String(error) }))
    .then((times) => process.send?.(times, () => process.exit(0)));
});
