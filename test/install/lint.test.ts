/**
 * The linter and the formatter are part of the build's checks (`npm run lint`, `npm run format:check`,
 * both run by CI): this holds them to catching what they are there for. Each snippet is written as a
 * file of a scratch tree that has the repository's biome.json, and Biome checks it there.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../core/paths.js';

const BIOME = join(PACKAGE_ROOT, 'node_modules', '.bin', 'biome');

function biome(command: 'lint' | 'format', path: string, source: string): { status: number | null; output: string } {
  const tree = mkdtempSync(join(tmpdir(), 'quarry-lint-'));
  try {
    copyFileSync(join(PACKAGE_ROOT, 'biome.json'), join(tree, 'biome.json'));
    mkdirSync(dirname(join(tree, path)), { recursive: true });
    writeFileSync(join(tree, path), source);
    // The scratch tree is no git checkout: the configuration's VCS settings are switched off for it.
    const run = spawnSync(BIOME, [command, '--vcs-enabled=false', path], { cwd: tree, encoding: 'utf8' });
    return { status: run.status, output: `${run.stdout}${run.stderr}` };
  } finally {
    rmSync(tree, { recursive: true, force: true });
  }
}

const CLEAN = 'export async function load(read: () => Promise<string>): Promise<string> {\n  return await read();\n}\n';

describe('npm run lint', () => {
  it('passes clean code', () => {
    expect(biome('lint', 'services/example.ts', CLEAN).status).toBe(0);
  });

  it.each([
    [
      'a floating promise',
      'export function start(run: () => Promise<void>): void {\n  run();\n}\n',
      'noFloatingPromises',
    ],
    ['an unused variable', 'export function f(): number {\n  const unused = 1;\n  return 2;\n}\n', 'noUnusedVariables'],
    ['an unused import', "import { join } from 'node:path';\nexport const x = 1;\n", 'noUnusedImports'],
    [
      'an any in product code',
      'export function f(value: any): string {\n  return String(value);\n}\n',
      'noExplicitAny',
    ],
    ['a focused test', "import { it } from 'vitest';\nit.only('x', () => {});\n", 'noFocusedTests'],
  ])('fails on %s', (_what, source, rule) => {
    const path = rule === 'noFocusedTests' ? 'services/example.test.ts' : 'services/example.ts';
    const { status, output } = biome('lint', path, source);
    expect(status).not.toBe(0);
    expect(output).toContain(rule);
  });
});

describe('npm run format:check', () => {
  it('passes formatted code and fails on a line past 120 characters or in another style', () => {
    expect(biome('format', 'services/example.ts', CLEAN).status).toBe(0);
    const long = `export const words = [${Array.from({ length: 20 }, (_, i) => `'word${i}'`).join(', ')}];\n`;
    expect(long.length).toBeGreaterThan(120);
    expect(biome('format', 'services/example.ts', long).status).not.toBe(0);
    expect(biome('format', 'services/example.ts', 'export const quoted = "double";\n').status).not.toBe(0);
  });
});

/** Runs scripts/check-line-width.mjs (part of `npm run lint`) on one scratch file. */
function lineWidth(source: string): { status: number | null; output: string } {
  const tree = mkdtempSync(join(tmpdir(), 'quarry-width-'));
  try {
    writeFileSync(join(tree, 'example.ts'), source);
    const run = spawnSync(process.execPath, [join(PACKAGE_ROOT, 'scripts', 'check-line-width.mjs'), 'example.ts'], {
      cwd: tree,
      encoding: 'utf8',
    });
    return { status: run.status, output: `${run.stdout}${run.stderr}` };
  } finally {
    rmSync(tree, { recursive: true, force: true });
  }
}

describe('npm run lint: lines of at most 120 characters, comments and strings too', () => {
  const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');

  it('passes short lines', () => {
    expect(lineWidth(`// ${words(10)}\nexport const s = '${words(10)}';\n`).status).toBe(0);
  });

  it.each([
    ['a long comment', `// ${words(25)}\nexport const x = 1;\n`],
    ['a long doc comment line', `/**\n * ${words(25)}\n */\nexport const x = 1;\n`],
    ['a long string', `export const s =\n  '${words(25)}';\n`],
  ])('fails on %s, naming the file and line', (_what, source) => {
    const { status, output } = lineWidth(source);
    expect(status).toBe(1);
    expect(output).toMatch(/example\.ts:\d+: \d+ characters/);
  });

  it('lets a regular expression, a template literal and a URL stay long', () => {
    const regex = `export const r = /${words(25).replaceAll(' ', '|')}/;\n`;
    const template = `export const t = (n: number) => \`${words(22)} \${n}\`;\n`;
    const url = `// https://example.com/${'a'.repeat(130)}\n`;
    for (const source of [regex, template, url]) expect(lineWidth(source).status).toBe(0);
  });
});
