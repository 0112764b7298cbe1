/**
 * The one way a test runs the built `quarry mcp` (node dist/hosts/cli/main.js mcp) over stdio:
 * configured the way a user would, by a config file (QUARRY_CONFIG) in a scratch HOME, against the
 * sandbox web when there is one. `spawnMcpStdio` returns the official SDK client connected to it;
 * `mcpStdioCommand` gives the command alone, for tests that drive the child another way (raw
 * JSON-RPC framing, another client such as the MCP Inspector or the 2.x SDK).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { mergeLayers, type ConfigInput } from '../../app/config.js';
import { PACKAGE_ROOT } from '../../core/paths.js';
import type { SandboxWeb } from '../sandbox/sandbox-web.js';
import { sandboxConfig } from './harness.js';

const CLI = join(PACKAGE_ROOT, 'dist/hosts/cli/main.js');

export interface McpStdioOptions {
  /** State lives here (shared with an HTTP host, or kept across starts); default `data` in the scratch folder. */
  dataDir?: string;
  /** HOME of the child (its cache lives there, e.g. the tool-list snapshot); default the scratch folder. */
  home?: string;
  /** Working directory of the child; default the test runner's. */
  cwd?: string;
  /** Variables over the defaults (PATH, HOME, QUARRY_CONFIG). */
  env?: Record<string, string>;
  /** The name the SDK client introduces itself by. */
  clientName?: string;
}

export interface McpStdioCommand {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
  dataDir: string;
  configPath: string;
  /** Removes the scratch folder (the config file, and the data unless `dataDir` was given). */
  cleanup(): void;
}

/**
 * Writes the child's config file and returns how to start it. With `web`, engines point at the
 * sandbox and only its port is let through; without, the config is `overrides` alone (tests of
 * the host itself, no search).
 */
export async function mcpStdioCommand(
  web: SandboxWeb | null,
  overrides: ConfigInput = {},
  options: McpStdioOptions = {},
): Promise<McpStdioCommand> {
  const scratch = mkdtempSync(join(tmpdir(), 'quarry-mcp-stdio-'));
  const dataDir = options.dataDir ?? join(scratch, 'data');
  const base = web ? await sandboxConfig(web, dataDir) : { dataDir };
  const config = mergeLayers({ ...base, logLevel: 'warn' }, overrides as Record<string, unknown>);
  const configPath = join(scratch, 'quarry.config.json');
  writeFileSync(configPath, JSON.stringify(config));
  return {
    command: process.execPath,
    args: [CLI, 'mcp'],
    env: { PATH: process.env.PATH ?? '', HOME: options.home ?? scratch, QUARRY_CONFIG: configPath, ...options.env },
    ...(options.cwd ? { cwd: options.cwd } : {}),
    dataDir,
    configPath,
    cleanup: () => rmSync(scratch, { recursive: true, force: true }),
  };
}

export interface McpStdio {
  client: Client;
  /** The child's PID (tests about the process). */
  pid: number;
  dataDir: string;
  /** Everything the child wrote to stderr (its logs). */
  stderr(): string;
  /** Closes the client, which ends the child (and, from spawnMcpStdio, removes the scratch folder). */
  close(): Promise<void>;
}

/** Spawns `quarry mcp` and connects the official SDK client to it over stdio. */
export async function spawnMcpStdio(
  web: SandboxWeb | null,
  overrides: ConfigInput = {},
  options: McpStdioOptions = {},
): Promise<McpStdio> {
  const command = await mcpStdioCommand(web, overrides, options);
  const running = await connectMcpStdio(command, options.clientName).catch((error: unknown) => {
    command.cleanup();
    throw error;
  });
  return {
    ...running,
    async close() {
      await running.close();
      command.cleanup();
    },
  };
}

/**
 * Starts one more child from a prepared command (several starts of one configuration, e.g. a
 * restart that must find the previous start's cache); close() leaves the scratch folder to the caller.
 */
export async function connectMcpStdio(command: McpStdioCommand, clientName = 'quarry-test'): Promise<McpStdio> {
  const transport = new StdioClientTransport({
    command: command.command,
    args: command.args,
    env: command.env,
    ...(command.cwd ? { cwd: command.cwd } : {}),
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: clientName, version: '1.0.0' });
  try {
    await client.connect(transport);
  } catch (error) {
    throw new Error(`quarry mcp did not start: ${String(error)}\n${stderr}`);
  }
  return {
    client,
    pid: transport.pid!,
    dataDir: command.dataDir,
    stderr: () => stderr,
    close: () => client.close(),
  };
}
