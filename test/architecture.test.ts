/**
 * Keeps the layout ARCHITECTURE.md describes: the import rules of
 * .dependency-cruiser.cjs (no cycles, the kernel imports nothing above it,
 * plugins never import each other, …), a kernel small enough to read, and a
 * document that names every service folder that exists and no other.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../core/paths.js';

const LAYERS = ['core', 'services', 'app', 'plugins', 'engines', 'hosts', 'workers'];
const KERNEL_MAX_LINES = 3000;

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'fixtures' ? [] : sourceFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('architecture', () => {
  it('keeps every import rule of ARCHITECTURE.md and has no import cycle', () => {
    const bin = join(PACKAGE_ROOT, 'node_modules', '.bin', 'depcruise');
    const out = execFileSync(bin, [...LAYERS, '--config', '.dependency-cruiser.cjs', '--output-type', 'json'], {
      cwd: PACKAGE_ROOT,
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    });
    const summary = (JSON.parse(out) as { summary: { violations: Violation[]; totalCruised: number } }).summary;
    expect(summary.totalCruised).toBeGreaterThan(400);
    expect(summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`)).toEqual([]);
  }, 120_000);

  it('keeps the kernel under 3,000 lines', () => {
    const lines = sourceFiles(join(PACKAGE_ROOT, 'core')).reduce((sum, file) => sum + readFileSync(file, 'utf8').split('\n').length, 0);
    expect(lines).toBeLessThan(KERNEL_MAX_LINES);
  });

  it('documents every service folder that exists, and only those', () => {
    const doc = readFileSync(join(PACKAGE_ROOT, 'ARCHITECTURE.md'), 'utf8');
    const existing = readdirSync(join(PACKAGE_ROOT, 'services')).filter((name) => statSync(join(PACKAGE_ROOT, 'services', name)).isDirectory());
    const servicesSection = doc.slice(doc.indexOf('**services/**'), doc.indexOf('**app/**'));
    const documented = [...servicesSection.matchAll(/^\| `([a-z-]+)\/` \|/gm)].map((match) => match[1]);
    expect([...documented].sort()).toEqual([...existing].sort());
    for (const layer of LAYERS) expect(existsSync(join(PACKAGE_ROOT, layer))).toBe(true);
  });
});
