/**
 * `quarry mcp` answers tools/list from the previous start's list while the
 * app loads (hosts/mcp/tool-list-snapshot.ts): a planted snapshot is what the
 * second start answers, and once the app has loaded the client is told the
 * list changed, the live list is served and the snapshot is rewritten.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import { connectMcpStdio, mcpStdioCommand } from './mcp-stdio.js';

const home = mkdtempSync(join(tmpdir(), 'quarry-mcp-snapshot-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

// One command for every start: the snapshot is keyed by the QUARRY_* variables (the config file's path among them) and
// cwd.
const command = await mcpStdioCommand(null, { dataDir: join(home, 'data') }, { home, cwd: home });
afterAll(() => command.cleanup());

async function connect(): Promise<Client> {
  return (await connectMcpStdio(command, 'snapshot-test')).client;
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
