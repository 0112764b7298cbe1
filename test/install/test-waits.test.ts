/**
 * One way to wait in tests: `until` (test/sandbox/until.ts), which polls a real read of the event
 * a test waits for. This scans the source of every test file (`*.test.ts` anywhere, and every
 * helper under test/) for the hand-written alternatives: a sleep promise (a timer resolving a
 * promise), the sleep of node:timers/promises, a loop on the clock (`while (Date.now() < …)`),
 * vitest's own polling (`vi.waitFor`, `vi.waitUntil`) and each call of a sleep helper
 * (a function named sleep, delay or pause). Shared test helpers outside test/ (the `.ts` files of any
 * `fixtures/` folder, such as the job-queue conformance suite) are scanned too; worker scripts
 * (`.mjs`) are programs under test, not tests. A text scan, so it sees what a test writes, not what
 * it means: the allow-list below names the few files whose timers are not a wait for an event,
 * each with how many matches it may have and why.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../core/paths.js';

const HAND_WAITS: Array<{ name: string; pattern: RegExp }> = [
  {
    name: 'a sleep promise',
    // new Promise((r) => setTimeout(r, ms)), also with () => r() as the timer's callback.
    pattern: /new Promise(?:<[^>]*>)?\(\s*\(?\s*(\w+)\s*\)?\s*=>\s*\{?\s*setTimeout\(\s*(?:\1|\(\)\s*=>\s*\1\(\))\s*,/g,
  },
  { name: 'the sleep of node:timers/promises', pattern: /['"](?:node:)?timers\/promises['"]/g },
  { name: 'a loop on the clock', pattern: /\b(?:while|for)\s*\([^)]*Date\.now\(\)/g },
  { name: "vitest's own polling", pattern: /\bvi\.(?:waitFor|waitUntil)\(/g },
  // Each call of a file's own sleep helper counts, not only its definition.
  { name: 'a call of a sleep helper', pattern: /(?<![.\w])(?:sleep|delay|pause)\(/g },
];

/** Files whose timers are allowed, with the number of matches each may have and the reason. */
const ALLOWED: Record<string, { matches: number; reason: string }> = {
  'test/sandbox/until.ts': { matches: 2, reason: 'the one wait: its pause between two polls' },
  'services/llm/fixtures/scripted-server.ts': {
    matches: 3,
    reason: 'the scripted model streams each event in two halves, a moment apart, to exercise reassembly',
  },
  'services/jobs/fixtures/job-queue-conformance.ts': {
    matches: 3,
    reason: "a job's own work (30 ms), and a finished job's 1 s TTL passing (the rule under test is an age)",
  },
  'test/e2e/health-probe.ts': {
    matches: 2,
    reason: 'the probe schedule is the measurement: /healthz every 50 ms, and 1.5 s of probing the idle server',
  },
  'test/sandbox/round-robin-proxy.ts': {
    matches: 2,
    reason: "the stand-in load balancer's own behaviour: its health-check interval and its back-off between rounds",
  },
  'services/vectors/lance-page-index.shared.test.ts': {
    matches: 2,
    reason: 'the visibility poll runs inside a spawned plain-JavaScript child, which cannot import until (TypeScript)',
  },
  'core/http/outbound-client.test.ts': {
    matches: 2,
    reason:
      'a slow upstream (each answer held 80 ms, so requests overlap), and proving no retry follows a ' +
      'cancellation needs a window longer than the backoff',
  },
  'core/stores/record-mutex.test.ts': {
    matches: 2,
    reason: 'simulated work between the read and the write, so that increments without exclusion overlap and get lost',
  },
  'services/vectors/directory-lock.test.ts': {
    matches: 2,
    reason: 'simulated work inside the lock, so that holders without exclusion would overlap',
  },
  'test/e2e/page-actions.test.ts': {
    matches: 1,
    reason: 'the script a page runs in the browser (an executeJavascript action that waits), not the test waiting',
  },
  'test/install/test-waits.test.ts': {
    matches: 9,
    reason: 'this file: its doc comment and the examples it must notice',
  },
  'services/embeddings/batch-queue.test.ts': {
    matches: 1,
    reason: 'a fake model that takes 5 ms per batch, so that calls queue up and coalesce',
  },
};

/** Every hand-written wait in `source`: the pattern's name and the line number. */
function handWaits(source: string): Array<{ name: string; line: number }> {
  const found: Array<{ name: string; line: number }> = [];
  for (const { name, pattern } of HAND_WAITS) {
    for (const match of source.matchAll(pattern)) {
      found.push({ name, line: source.slice(0, match.index).split('\n').length });
    }
  }
  return found.sort((a, b) => a.line - b.line);
}

const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.git', 'coverage', 'data']);

function testSources(dir: string, underTest = false): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (SKIPPED_DIRS.has(entry.name) || entry.name.startsWith('.')) continue;
      const path = join(dir, entry.name);
      const helpers = underTest || relative(PACKAGE_ROOT, path) === 'test' || entry.name === 'fixtures';
      files.push(...testSources(path, helpers));
    } else if (entry.name.endsWith('.test.ts') || (underTest && entry.name.endsWith('.ts'))) {
      files.push(relative(PACKAGE_ROOT, join(dir, entry.name)));
    }
  }
  return files;
}

describe('waiting in tests', () => {
  it('uses until for every wait: no hand-written polling loop or sleep in a test file', () => {
    const offences: string[] = [];
    for (const file of testSources(PACKAGE_ROOT)) {
      const waits = handWaits(readFileSync(join(PACKAGE_ROOT, file), 'utf8'));
      const allowed = ALLOWED[file]?.matches ?? 0;
      if (waits.length > allowed) {
        offences.push(...waits.map((wait) => `${file}:${wait.line}: ${wait.name}`));
      }
    }
    expect(offences, 'wait with until (test/sandbox/until.ts) instead').toEqual([]);
  });

  it('keeps the allow-list true: each allowed file exists and has exactly its allowed matches', () => {
    const counts = Object.fromEntries(
      Object.keys(ALLOWED).map((file) => [file, handWaits(readFileSync(join(PACKAGE_ROOT, file), 'utf8')).length]),
    );
    expect(counts).toEqual(Object.fromEntries(Object.entries(ALLOWED).map(([file, { matches }]) => [file, matches])));
  });

  it('would notice each kind of hand-written wait', () => {
    const source = [
      'await new Promise((r) => setTimeout(r, 100));',
      'await new Promise<void>((resolve) => setTimeout(() => resolve(), 50));',
      "import { setTimeout as sleep } from 'node:timers/promises';",
      'while (Date.now() < deadline) {',
      'for (const end = Date.now() + ms; Date.now() < end; ) {}',
      'await vi.waitFor(() => expect(x).toBe(1));',
      'await sleep(250);',
      // Not waits: a timer that does something later, and a timeout that rejects.
      'setTimeout(() => controller.abort(), 300);',
      "const timer = setTimeout(() => reject(new Error('late')), 1000);",
      'await delays.wait(page.delayMs);',
    ].join('\n');
    expect(handWaits(source).map((wait) => wait.line)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });
});
