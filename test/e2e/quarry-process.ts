/**
 * Runs the built `quarry serve` (node dist/hosts/cli/main.js serve) as a
 * child process against the sandbox web, configured the way a user would:
 * a config file (QUARRY_CONFIG) and QUARRY_* variables. Killed by its PID.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mergeLayers, type ConfigInput } from '../../app/config.js';
import { PACKAGE_ROOT } from '../../core/paths.js';
import type { SandboxWeb } from '../sandbox/sandbox-web.js';
import { call, sandboxConfig, TEST_KEY } from './harness.js';
import { freePort } from '../sandbox/free-port.js';
import { until } from '../sandbox/until.js';

const CLI = join(PACKAGE_ROOT, 'dist/hosts/cli/main.js');
// A bound for a stuck start, not a check of start-up time: two instances starting at once on a loaded
// 2-core machine took over 30 s to listen (several-instances, failover, monitor-durability).
const READY_TIMEOUT_MS = 60_000;

export interface QuarryProcess {
  url: string;
  port: number;
  pid: number;
  dataDir: string;
  /** Everything the process wrote to stderr (its logs). */
  logs(): string;
  /** Everything the process wrote to stdout (a server should write nothing there). */
  stdout(): string;
  /** Resolves with the exit code (null when killed by a signal) and the signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(signal: NodeJS.Signals): void;
  get(path: string, key?: string): Promise<{ status: number; body: any }>;
  post(path: string, body: unknown, key?: string): Promise<{ status: number; body: any }>;
}

export interface SpawnOptions {
  /** The sandbox the engines point at; without one, the package's own defaults (a test of the plain install). */
  web?: SandboxWeb;
  /** Settings over the sandbox's (engines on the sandbox, its port allowed, test key and webhook secret). */
  config?: ConfigInput;
  env?: Record<string, string>;
  /** Reuse a port (a restarted instance behind a load balancer), or 0 to let the process pick; default a free one. */
  port?: number;
  /** Reuse a data directory (a restart); default a new temporary one. */
  dataDir?: string;
  apiKeys?: string[];
}

export async function spawnQuarry(options: SpawnOptions): Promise<QuarryProcess> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'quarry-serve-'));
  const port = options.port ?? (await freePort());
  const base = options.web ? await sandboxConfig(options.web, dataDir) : { dataDir };
  const config = mergeLayers(
    base as Record<string, unknown>,
    { logLevel: 'info', ...(options.config ?? {}) } as Record<string, unknown>,
  );
  const configPath = join(dataDir, 'quarry.config.json');
  writeFileSync(configPath, JSON.stringify(config));
  const keys = options.apiKeys ?? [TEST_KEY];
  const child: ChildProcess = spawn(process.execPath, [CLI, 'serve'], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: dataDir,
      QUARRY_CONFIG: configPath,
      QUARRY_HOST: '127.0.0.1',
      QUARRY_PORT: String(port),
      QUARRY_API_KEYS: keys.join(','),
      ...(options.env ?? {}),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let logs = '';
  let stdout = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`quarry serve did not listen within ${READY_TIMEOUT_MS} ms:\n${logs}`)),
      READY_TIMEOUT_MS,
    );
    child.stderr!.on('data', (chunk: Buffer) => {
      logs += chunk.toString();
      const match = /listening on (http:\/\/[\d.:]+)/.exec(logs);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`quarry serve exited (${code ?? signal}) before listening:\n${logs}`));
    });
  });
  const auth = (key = keys[0]!) => ({ 'x-api-key': key });
  return {
    url,
    port: Number(new URL(url).port),
    pid: child.pid!,
    dataDir,
    logs: () => logs,
    stdout: () => stdout,
    exited,
    kill: (signal) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    },
    get: (path, key) => call(url + path, { headers: auth(key) }),
    post: (path, body, key) =>
      call(url + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...auth(key) },
        body: JSON.stringify(body),
      }),
  };
}

/** Instances a test file starts, killed after each test; temporary directories removed at the end. */
export function fleet(web: () => SandboxWeb, apiKeys: string[]) {
  const running: QuarryProcess[] = [];
  const dirs: string[] = [];
  return {
    async start(options: Omit<SpawnOptions, 'web'>): Promise<QuarryProcess> {
      const instance = await spawnQuarry({ web: web(), apiKeys, ...options });
      running.push(instance);
      return instance;
    },
    /** Stops tracking an instance that has exited on its own. */
    forget(instance: QuarryProcess): void {
      const at = running.indexOf(instance);
      if (at >= 0) running.splice(at, 1);
    },
    tempDir(): string {
      const dir = mkdtempSync(join(tmpdir(), 'quarry-fleet-'));
      dirs.push(dir);
      return dir;
    },
    async killAll(): Promise<void> {
      for (const instance of running.splice(0)) {
        instance.kill('SIGKILL');
        await instance.exited;
      }
    },
    removeDirs(): void {
      for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Polls a search job's status through `via` until it has finished. */
export async function finishedJob(
  via: { get(path: string): Promise<{ status: number; body: any }> },
  id: string,
  timeoutMs: number,
): Promise<any> {
  let last: unknown;
  return until(
    () => `job ${id} to finish; last answer ${JSON.stringify(last)}`,
    async () => {
      const answer = await via
        .get(`/api/v1/search/jobs/${id}`)
        .catch((error: unknown) => ({ status: 0, body: String(error) }));
      last = answer;
      return answer.status === 200 && (answer.body.status === 'completed' || answer.body.status === 'failed')
        ? answer.body
        : undefined;
    },
    timeoutMs,
    200,
  );
}
