#!/usr/bin/env node
// Checks that the contract suite notices a renamed response field: in a scratch
// copy of HEAD, renames one field where each area builds its answer, runs that
// area's contract test and expects it to fail. Prints one row per mutation.
// Usage: node scripts/check-contract-mutations.mjs   (a few minutes; needs node_modules)
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(new URL('..', import.meta.url).pathname);
const MUTATIONS = [
  {
    area: 'search',
    file: 'services/web-search/search-runner.ts',
    from: 'engines_failed: failed',
    to: 'failed_engines: failed',
  },
  {
    area: 'neural',
    file: 'services/neural-search/neural-search.ts',
    from: 'published_date: candidate',
    to: 'publishedDate: candidate',
  },
  { area: 'enhanced', file: 'plugins/enhanced/scrape/present.ts', from: 'word_count: record', to: 'words: record' },
  { area: 'agent', file: 'plugins/agent/search.ts', from: 'response_time: Math', to: 'responseTime: Math' },
  { area: 'rag', file: 'plugins/rag/search.ts', from: 'relevance_score: c.score', to: 'score: c.score' },
  {
    area: 'verify',
    file: 'plugins/verify/verify-claim.ts',
    from: 'credibility_score: candidate',
    to: 'credibility: candidate',
  },
  { area: 'knowledge', file: 'plugins/knowledge/views.ts', from: 'source_count: entity', to: 'sources: entity' },
  { area: 'monitor', file: 'plugins/monitor/views.ts', from: 'alerts_sent: record', to: 'alertsSent: record' },
];

const scratch = mkdtempSync(join(tmpdir(), 'quarry-mutations-'));
execFileSync('git', ['-C', root, 'worktree', 'add', '--detach', scratch, 'HEAD'], { stdio: 'ignore' });
try {
  symlinkSync(join(root, 'node_modules'), join(scratch, 'node_modules'));
  if (existsSync(join(root, 'models'))) symlinkSync(join(root, 'models'), join(scratch, 'models'));
  // Worker pools run from dist/, so the scratch copy is built once (the mutations are in plugins
  // and services that the tests load from source).
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: scratch, stdio: 'ignore' });
  const control = spawnSync('npx', ['vitest', 'run', 'test/contract/'], { cwd: scratch, encoding: 'utf8' });
  if (control.status !== 0)
    throw new Error(`the contract suite fails without any mutation:\n${control.stdout.slice(-3000)}`);
  console.log('control: the contract suite passes unmutated');
  let caught = 0;
  for (const m of MUTATIONS) {
    const path = join(scratch, m.file);
    const original = readFileSync(path, 'utf8');
    if (!original.includes(m.from)) throw new Error(`${m.file} no longer contains "${m.from}": update this script`);
    writeFileSync(path, original.replace(m.from, m.to));
    const run = spawnSync('npx', ['vitest', 'run', `test/contract/${m.area}.contract.test.ts`], {
      cwd: scratch,
      encoding: 'utf8',
    });
    writeFileSync(path, original);
    const failed = run.status !== 0;
    if (failed) caught++;
    const firstFailure =
      (run.stdout + run.stderr)
        .replace(/\x1b\[[0-9;]*m/g, '')
        .split('\n')
        .find((line) => /AssertionError|Error:|expected/.test(line)) ?? '';
    console.log(
      `${failed ? 'caught ' : 'MISSED '} ${m.area.padEnd(9)} ${m.from.split(':')[0]} → ${m.to.split(':')[0]}  ${firstFailure.trim().slice(0, 120)}`,
    );
  }
  console.log(`${caught} of ${MUTATIONS.length} renamed fields made their area's contract test fail`);
  process.exitCode = caught === MUTATIONS.length ? 0 : 1;
} finally {
  execFileSync('git', ['-C', root, 'worktree', 'remove', '--force', scratch], { stdio: 'ignore' });
  rmSync(scratch, { recursive: true, force: true });
}
