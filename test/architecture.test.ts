/**
 * Keeps the layout ARCHITECTURE.md describes: the import rules of
 * .dependency-cruiser.cjs (no cycles, the kernel imports nothing above it,
 * plugins never import each other, …), untrusted pages parsed only in the
 * worker pool, a kernel small enough to read, and a document that names every
 * service folder that exists and no other.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../core/paths.js';

const LAYERS = ['core', 'services', 'app', 'plugins', 'engines', 'hosts', 'workers'];
/** 3,000 until 2026-11-27, when core/abort.ts's one deadline per call (fetches, pool tasks, browser pages) took the kernel to 3,035. */
const KERNEL_MAX_LINES = 3100;

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
}

interface CruisedModule {
  source: string;
  dependencies: Array<{ resolved: string; dependencyTypes: string[] }>;
}

interface Cruise {
  summary: { violations: Violation[]; totalCruised: number };
  modules: CruisedModule[];
}

/** Packages that parse HTML or XML into a document: untrusted pages are parsed in the extraction worker pool only. */
const DOM_PARSERS = /(^|\/)node_modules\/(linkedom|htmlparser2|cheerio|parse5|jsdom|turndown|@mozilla\/readability|node-html-parser)\//;
/** Main-thread modules allowed to parse anyway, each with the reason. */
const PARSES_ON_THE_MAIN_THREAD: Record<string, string> = {
  // A config-declared engine, loaded here for its request builder; the engine service parses its answers in the worker pool, like every engine's.
  'services/engines/config-engines.ts': 'engine definition',
  // A request's json_css selectors, tried on a fixed probe element before any page is fetched.
  'services/page-analysis/css-schema.ts': 'selector checks',
};

let cruised: Cruise | null = null;
function cruise(): Cruise {
  const bin = join(PACKAGE_ROOT, 'node_modules', '.bin', 'depcruise');
  cruised ??= JSON.parse(
    execFileSync(bin, [...LAYERS, '--config', '.dependency-cruiser.cjs', '--output-type', 'json'], { cwd: PACKAGE_ROOT, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 }),
  ) as Cruise;
  return cruised;
}

/**
 * The import chains (type-only imports aside) from main-thread code — the
 * composition root, the hosts and every plugin (plugins are loaded from their
 * folders at run time) — to a module that imports a DOM parser.
 */
function mainThreadParsers(modules: CruisedModule[]): string[] {
  const bySource = new Map(modules.map((module) => [module.source, module]));
  const isMainEntry = (source: string): boolean => /^(app\/create-quarry|hosts\/.*|plugins\/.*)\.ts$/.test(source) && !/\.test\.ts$|\/fixtures\//.test(source);
  const via = new Map<string, string | null>();
  const queue = modules.map((module) => module.source).filter(isMainEntry);
  for (const source of queue) via.set(source, null);
  const found: string[] = [];
  while (queue.length > 0) {
    const source = queue.shift()!;
    if (PARSES_ON_THE_MAIN_THREAD[source]) continue;
    for (const dependency of bySource.get(source)?.dependencies ?? []) {
      if (dependency.dependencyTypes.includes('type-only')) continue;
      if (DOM_PARSERS.test(dependency.resolved)) {
        const chain = [dependency.resolved, source];
        for (let at = via.get(source); at; at = via.get(at)) chain.push(at);
        found.push(chain.reverse().join(' → '));
      } else if (!via.has(dependency.resolved) && bySource.has(dependency.resolved)) {
        via.set(dependency.resolved, source);
        queue.push(dependency.resolved);
      }
    }
  }
  return found;
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
    const { summary } = cruise();
    expect(summary.totalCruised).toBeGreaterThan(400);
    expect(summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`)).toEqual([]);
  }, 120_000);

  it('parses fetched pages only in the extraction worker pool: no main-thread module reaches a DOM parser', () => {
    expect(mainThreadParsers(cruise().modules)).toEqual([]);
  }, 120_000);

  it('would notice a main-thread module that parses a page', () => {
    const modules: CruisedModule[] = [
      { source: 'plugins/x/index.ts', dependencies: [{ resolved: 'services/y/read.ts', dependencyTypes: ['local', 'import'] }, { resolved: 'services/y/shape.ts', dependencyTypes: ['local', 'type-only', 'import'] }] },
      { source: 'services/y/read.ts', dependencies: [{ resolved: 'node_modules/linkedom/esm/index.js', dependencyTypes: ['npm'] }] },
      { source: 'services/y/shape.ts', dependencies: [{ resolved: 'node_modules/htmlparser2/dist/index.js', dependencyTypes: ['npm'] }] },
    ];
    expect(mainThreadParsers(modules)).toEqual(['plugins/x/index.ts → services/y/read.ts → node_modules/linkedom/esm/index.js']);
  });

  it('keeps the kernel under 3,100 lines', () => {
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
