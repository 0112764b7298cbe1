import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../core/paths.js';
import { modelFor } from './model-choice.js';
import type { LlmClient } from './types.js';

const client = (model: string) => ({ provider: 'openai-compatible', model }) as unknown as LlmClient;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'fixtures' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('modelFor', () => {
  it('gives each use its tier, and the other tier when that one is not configured', () => {
    const both = { fast: client('small'), quality: client('large') };
    expect(modelFor(both, 'claim-judgement')?.model).toBe('small');
    expect(modelFor(both, 'research-report')?.model).toBe('large');
    expect(modelFor({ fast: null, quality: client('large') }, 'claim-judgement')?.model).toBe('large');
    expect(modelFor({ fast: client('small'), quality: null }, 'monitor-summary')?.model).toBe('small');
    expect(modelFor({ fast: null, quality: null }, 'page-summary')).toBeNull();
  });

  it('is the only place a tier is picked: no plugin or other service reads llm.fast or llm.quality', () => {
    const files = ['plugins', 'services']
      .flatMap((dir) => sourceFiles(join(PACKAGE_ROOT, dir)))
      .filter((file) => !relative(PACKAGE_ROOT, file).startsWith('services/llm/'));
    const pickers = files.filter((file) =>
      /\b(llm|tiers)\??\.(fast|quality)\b/.test(readFileSync(file, 'utf8').replace(/`[^`]*`|'[^'\n]*'/g, '')),
    );
    expect(pickers.map((file) => relative(PACKAGE_ROOT, file))).toEqual([]);
  });
});
