/**
 * `quarry mcp` answers tools/list from the previous start's list while the
 * app loads (hosts/mcp/tool-list-snapshot.ts): a planted snapshot is what the
 * second start answers, and once the app has loaded the client is told the
 * list changed, the live list is served and the snapshot is rewritten.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../core/paths.js';

const home = mkdtempSync(join(tmpdir(), 'quarry-mcp-snapshot-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

async function connect(): Promise<Client> {
  const client = new Client({ name: 'snapshot-test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [join(PACKAGE_ROOT, 'dist/hosts/cli/main.js'), 'mcp'],
      env: { PATH: process.env.PATH ?? '', HOME: home, QUARRY_DATA_DIR: join(home, 'data'), QUARRY_LOG_LEVEL: 'warn' },
      cwd: home,
      stderr: 'pipe',
    }),
  );
  return client;
}

const snapshotFiles = () => readdirSync(join(home, '.cache/quarry')).filter((name) => name.startsWith('mcp-tools-'));

describe('the tool list of the previous start', () => {
  it('is answered at once by the next start, then checked against the live list', { timeout: 120_000 }, async () => {
    const first = await connect();
    const live = (await first.listTools()).tools.map((t) => t.name).sort();
    await first.close();
    const [file] = snapshotFiles();
    expect(file).toBeDefined();
    const path = join(home, '.cache/quarry', file!);
    expect((JSON.parse(readFileSync(path, 'utf8')) as Array<{ name: string }>).map((t) => t.name).sort()).toEqual(live);

    // A stale snapshot: what the next start answers before its app is loaded.
    const stale = (JSON.parse(readFileSync(path, 'utf8')) as Array<{ name: string }>).filter(
      (t) => t.name !== 'search_web',
    );
    writeFileSync(path, JSON.stringify(stale));
    const second = await connect();
    try {
      const changed = new Promise<void>((resolve) =>
        second.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()),
      );
      expect((await second.listTools()).tools.map((t) => t.name)).not.toContain('search_web');
      await changed;
      expect((await second.listTools()).tools.map((t) => t.name).sort()).toEqual(live);
      expect((JSON.parse(readFileSync(path, 'utf8')) as Array<{ name: string }>).map((t) => t.name).sort()).toEqual(
        live,
      );
    } finally {
      await second.close();
    }
  });
});
