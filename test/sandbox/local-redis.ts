/**
 * Tests and benchmarks: a throwaway redis-server on a free port of 127.0.0.1 with a
 * temporary dir and no persistence, stopped by its PID.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';
import { GiveUp, until } from './until.js';

export const REDIS_SERVER_PATH = '/usr/bin/redis-server';
export const hasRedisServer = existsSync(REDIS_SERVER_PATH);

export interface LocalRedis {
  url: string;
  port: number;
  stop(): Promise<void>;
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
  });
}

/**
 * With `dir`, the server loads `dir/dump.rdb` when there is one (a recorded Redis) and leaves the folder to the caller.
 */
export async function startLocalRedis(options: { dir?: string } = {}): Promise<LocalRedis> {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'quarry-redis-'));
  const port = await freePort();
  const child = spawn(
    REDIS_SERVER_PATH,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
    {
      stdio: 'ignore',
    },
  );
  const stop = async (): Promise<void> => {
    if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited(child);
    if (!options.dir) rmSync(dir, { recursive: true, force: true });
  };
  try {
    await until(
      `redis-server to listen on port ${port}`,
      async () => {
        if (child.exitCode !== null) throw new GiveUp(`redis-server exited with ${child.exitCode} before listening`);
        return canConnect(port);
      },
      10_000,
      50,
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `redis://127.0.0.1:${port}`, port, stop };
}
