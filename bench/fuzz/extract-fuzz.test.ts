/**
 * The extraction fuzz in the suite (issue 44): a bounded, seeded sample of
 * mutated pages made from the project's own real page fixtures
 * (test/fixtures/pages, provenance there). No mutation may crash the
 * extractor (throw, or "extraction_error"), and no page may fail or lose its
 * main text either (fuzz-check.ts defines both), whatever the mutation.
 * `npm run bench:fuzz` runs the same check over 10,000+ pages of the shared
 * extraction sets (docs/benchmarks.md).
 *
 * Seed: QUARRY_EXTRACT_FUZZ_SEED (default 44); count: QUARRY_EXTRACT_FUZZ_PAGES (default 200).
 */
import { readdirSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadPage } from '../../test/fixtures/pages/load-page.js';
import { runFuzz, type FuzzPage, type FuzzProblem, type FuzzReport } from './fuzz-run.js';
import { MUTATION_KINDS } from './page-mutator.js';

const SEED = Number(process.env.QUARRY_EXTRACT_FUZZ_SEED ?? 44);
const COUNT = Number(process.env.QUARRY_EXTRACT_FUZZ_PAGES ?? 200);

function fixturePages(): FuzzPage[] {
  const folder = new URL('../../test/fixtures/pages/', import.meta.url);
  const top = readdirSync(folder).filter((name) => /\.html(\.gz)?$/.test(name));
  const wcxb = readdirSync(new URL('wcxb/', folder))
    .filter((name) => name.endsWith('.html.gz'))
    .map((name) => `wcxb/${name}`);
  return [...top, ...wcxb].map((name) => ({
    id: name,
    url: `https://fixture.test/${name.replace(/\.html(\.gz)?$/, '')}/`,
    html: loadPage(name),
  }));
}

function describeProblem(p: FuzzProblem): string {
  return `${p.page} seed ${p.seed} [${p.kinds.join('+')}] ${p.notes.join('; ')}: ${p.outcome.verdict} — ${p.outcome.detail.slice(0, 300)}`;
}

const isCrash = (p: FuzzProblem): boolean =>
  p.outcome.detail.startsWith('threw') || p.outcome.detail === 'extraction_error';

describe('extraction fuzz (bounded sample)', () => {
  let report: FuzzReport;
  beforeAll(() => {
    report = runFuzz(fixturePages(), COUNT, SEED);
  }, 180_000);

  it(`no mutated page crashes the extractor (${COUNT} pages, seed ${SEED})`, () => {
    expect(report.pages).toBe(COUNT);
    expect(report.problems.filter(isCrash).map(describeProblem)).toEqual([]);
  });

  it('no mutated page fails or loses its main text, whatever the mutation', () => {
    expect(report.problems.map(describeProblem)).toEqual([]);
    // The sample reaches every kind of mutation.
    expect(MUTATION_KINDS.filter((kind) => !report.byKind.get(kind)?.pages)).toEqual([]);
  });
});
