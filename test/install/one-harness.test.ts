/**
 * One way to start Quarry in a test (issue 46.4): in process through test/e2e/harness.ts
 * (startQuarry), as a spawned `quarry serve` through test/e2e/quarry-process.ts (spawnQuarry), as
 * a spawned `quarry mcp` through test/e2e/mcp-stdio.ts (spawnMcpStdio). A source scan, like
 * test/contract/one-helper.test.ts: a test file that builds the app, the HTTP server or the stdio
 * child itself fails here, so each new test is written against the harness.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../core/paths.js';

/** What only the harness files may do. */
const OWN_START = [
  { what: 'spawns the built CLI', pattern: /dist\/hosts\/cli\/main\.js/ },
  { what: 'makes its own stdio MCP transport', pattern: /\bStdioClientTransport\b/ },
  { what: 'builds the app itself', pattern: /\bcreateQuarry\(/ },
  { what: 'builds the HTTP server itself', pattern: /\bbuildHttpServer\(/ },
];

/** The harness: the files that do it for everyone else. */
const HARNESS = new Set(['test/e2e/harness.ts', 'test/e2e/quarry-process.ts', 'test/e2e/mcp-stdio.ts']);

/** Files that must do one thing themselves, and why (file → the pattern's `what` it may match). */
const ALLOWED: Record<string, { what: string; why: string }[]> = {
  'test/e2e/cli.test.ts': [
    { what: 'spawns the built CLI', why: "a test of the CLI's own commands, arguments and exit codes" },
  ],
  'test/e2e/upgrade.test.ts': [
    { what: 'spawns the built CLI', why: "runs the CLI's own backup and restore commands, not a server" },
  ],
  'test/e2e/mcp-resources.test.ts': [
    {
      what: 'makes its own stdio MCP transport',
      why: "the 2.x SDK's stdio transport is the client under test; its command comes from mcp-stdio.ts",
    },
  ],
  'test/e2e/firecrawl-mcp.test.ts': [
    { what: 'makes its own stdio MCP transport', why: 'it spawns firecrawl-mcp, a third-party server, not Quarry' },
  ],
};

const SELF = 'test/install/one-harness.test.ts';
/** Folders whose *.test.ts files are scanned (tests live beside the code too), besides all of test/. */
const SOURCE_FOLDERS = ['app', 'core', 'engines', 'hosts', 'plugins', 'scripts', 'services', 'workers'];

function filesUnder(folder: string, keep: (name: string) => boolean): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(join(PACKAGE_ROOT, folder), { withFileTypes: true })) {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') found.push(...filesUnder(path, keep));
    } else if (keep(entry.name)) found.push(path);
  }
  return found;
}

const scanned = [
  ...filesUnder('test', (name) => name.endsWith('.ts')),
  ...SOURCE_FOLDERS.flatMap((folder) => filesUnder(folder, (name) => name.endsWith('.test.ts'))),
].filter((path) => !HARNESS.has(path) && path !== SELF);

/** The patterns a file matches that it is not allowed to. */
function ownStarts(path: string, source: string): string[] {
  const allowed = new Set((ALLOWED[path] ?? []).map((entry) => entry.what));
  return OWN_START.filter(({ what, pattern }) => pattern.test(source) && !allowed.has(what)).map(({ what }) => what);
}

describe('the one end-to-end harness', () => {
  it('is what the scan covers: the e2e and contract tests are among the files (the scan is not vacuous)', () => {
    expect(scanned.filter((path) => path.startsWith('test/e2e/')).length).toBeGreaterThan(50);
    expect(scanned).toContain('test/contract/contract-suite.ts');
  });

  it('flags a file that starts Quarry itself, and lets the allowed file do only what it is allowed', () => {
    expect(ownStarts('test/e2e/x.test.ts', 'const app = await createQuarry({ overrides: {}, env: {} });')).toEqual([
      'builds the app itself',
    ]);
    expect(ownStarts('test/e2e/cli.test.ts', "join(PACKAGE_ROOT, 'dist/hosts/cli/main.js')")).toEqual([]);
    expect(ownStarts('test/e2e/cli.test.ts', 'new StdioClientTransport({})')).toEqual([
      'makes its own stdio MCP transport',
    ]);
  });

  it.each(scanned)('%s starts Quarry only through the harness', (path) => {
    const source = readFileSync(join(PACKAGE_ROOT, path), 'utf8');
    expect(ownStarts(path, source), `${path}: use startQuarry, spawnQuarry or spawnMcpStdio`).toEqual([]);
  });

  it('has no stale allowance: every allowed file still needs what it is allowed', () => {
    for (const [path, entries] of Object.entries(ALLOWED)) {
      const source = readFileSync(join(PACKAGE_ROOT, path), 'utf8');
      for (const { what } of entries) {
        const pattern = OWN_START.find((entry) => entry.what === what)!.pattern;
        expect(pattern.test(source), `${path} no longer ${what}: drop it from ALLOWED`).toBe(true);
      }
    }
  });
});
