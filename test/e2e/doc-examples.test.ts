/**
 * Every curl example in README.md and docs/*.md, run as written against a
 * local Quarry (the sandbox web standing in for the engines): the address
 * http://127.0.0.1:8080 and `$(cat ~/.quarry/api-key)` are replaced by the
 * test server's, `$URL_KEY` is a configured URL key. Each must exit 0 and
 * answer 2xx with JSON. An example that needs what a test cannot have says
 * so on the line before its block — `<!-- example needs: internet -->` — and
 * is skipped here under that name, never silently.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../core/paths.js';
import { playDefaultEngines } from '../recordings.js';
import { startSandboxWeb, type SandboxWeb } from '../sandbox/sandbox-web.js';
import { startQuarry, TEST_KEY, type RunningQuarry } from './harness.js';

const run = promisify(execFile);
const URL_KEY = 'doc-examples-url-key-0123';
const DOCUMENTED_BASE = 'http://127.0.0.1:8080';
const KEY_FROM_FILE = '$(cat ~/.quarry/api-key)';
const NEEDS_MARK = /^<!--\s*example needs:\s*([^>]+?)\s*-->$/;

interface Example {
  where: string;
  command: string;
  needs: string | null;
}

/** The fenced shell blocks holding curl, with the mark on the line before each, if any. */
function curlExamples(file: string): Example[] {
  const lines = readFileSync(join(PACKAGE_ROOT, file), 'utf8').split('\n');
  const examples: Example[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^```(sh|bash|shell)\s*$/.test(lines[i]!)) continue;
    const end = lines.indexOf('```', i + 1);
    const command = lines.slice(i + 1, end).join('\n');
    if (/\bcurl\s/.test(command))
      examples.push({
        where: `${file}:${i + 2}`,
        command,
        needs: NEEDS_MARK.exec(lines[i - 1]?.trim() ?? '')?.[1] ?? null,
      });
    i = end;
  }
  return examples;
}

const files = [
  'README.md',
  ...readdirSync(join(PACKAGE_ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const examples = files.flatMap(curlExamples);

let web: SandboxWeb;
let quarry: RunningQuarry;

beforeAll(async () => {
  web = await startSandboxWeb();
  playDefaultEngines(web);
  quarry = await startQuarry(web, { urlKeys: [URL_KEY] });
});

afterAll(async () => {
  await quarry?.close();
  await web?.close();
});

describe('curl examples in the docs', () => {
  it('are found (README quick start and the SearXNG section at least)', () => {
    expect(examples.filter((e) => e.where.startsWith('README.md')).length).toBeGreaterThanOrEqual(3);
  });

  for (const example of examples) {
    if (example.needs) {
      it.skip(`${example.where} (needs ${example.needs})`, () => undefined);
      continue;
    }
    it(`${example.where} answers as documented`, { timeout: 60_000 }, async () => {
      const command = example.command
        .replaceAll(DOCUMENTED_BASE, quarry.url)
        .replaceAll(KEY_FROM_FILE, TEST_KEY)
        // Each curl also prints the status on a line of its own, after the body.
        .replace(/\bcurl\s/g, `curl -w '\\n%{http_code}\\n' `);
      const { stdout } = await run('sh', ['-c', command], { env: { ...process.env, URL_KEY }, timeout: 55_000 });
      const lines = stdout.trimEnd().split('\n');
      const status = Number(lines.pop());
      expect(status, `${example.where}: ${stdout.slice(0, 500)}`).toBeGreaterThanOrEqual(200);
      expect(status, `${example.where}: ${stdout.slice(0, 500)}`).toBeLessThan(300);
      expect(() => JSON.parse(lines.join('\n')), `${example.where} answers JSON`).not.toThrow();
    });
  }
});
