/**
 * The bench's engines in a process of their own, as real engines are on
 * other hosts: the recorded answers (up to 400 kB each) are built and sent
 * here, so their allocations and collections are not charged to the server
 * under test. Run by bench/search.bench.ts through fork(); it answers with one
 * message naming each engine's base URL, and stops when its parent goes.
 */
import { startSandboxWeb } from '../test/sandbox/sandbox-web.js';
import { BENCH_ENGINES, playRecording } from '../test/recordings.js';

export interface EngineHostReady {
  port: number;
  baseUrls: Record<string, string>;
}

const latencies = (process.env.BENCH_ENGINE_LATENCIES ?? '').split(',').map(Number);
const web = await startSandboxWeb();
BENCH_ENGINES.forEach((engine, i) => playRecording(web, engine, { delayMs: latencies[i] ?? 0 }));
const ready: EngineHostReady = {
  port: web.port,
  baseUrls: Object.fromEntries(BENCH_ENGINES.map((id) => [id, web.engineBaseUrl(id)])),
};
process.send?.(ready);
process.on('disconnect', () => void web.close().finally(() => process.exit(0)));
