/**
 * The three extraction benchmarks as lists of pages with their ground truth.
 * Pages are read lazily (html()), so a run never holds every page in memory.
 * Location: ../shared/fixtures/extraction beside the package root, or
 * EXTRACTION_DATASET_DIR.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { PACKAGE_ROOT } from '../../core/paths.js';

export const DATASET_DIR = resolve(
  process.env.EXTRACTION_DATASET_DIR ?? join(PACKAGE_ROOT, '..', 'shared', 'fixtures', 'extraction'),
);

export interface BenchPage {
  id: string;
  url: string;
  html: () => string;
}

export interface ZytePage extends BenchPage {
  truth: string;
}

export interface WcxbPage extends BenchPage {
  pageType: string;
  truth: string;
}

export interface SnippetPage extends BenchPage {
  with: string[];
  without: string[];
}

function gunzipText(path: string): string {
  return gunzipSync(readFileSync(path)).toString('utf8');
}

function readJson<T>(path: string): T {
  return JSON.parse(readFileSync(path, 'utf8')) as T;
}

export function datasetsPresent(): boolean {
  return ['zyte-html', 'wcxb-dev', 'trafilatura-eval'].every((name) => existsSync(join(DATASET_DIR, name)));
}

export function zytePages(): ZytePage[] {
  const truth = readJson<Record<string, { articleBody: string; url: string }>>(
    join(DATASET_DIR, 'zyte-truth', 'ground-truth.json'),
  );
  return Object.entries(truth)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([id, entry]) => ({
      id,
      url: entry.url,
      truth: entry.articleBody,
      html: () => gunzipText(join(DATASET_DIR, 'zyte-html', `${id}.html.gz`)),
    }));
}

/** articleBody per page id of one published tool (two layouts exist: with and without an "output" wrapper). */
export function zyteBaseline(file: string): Map<string, string> {
  const raw = readJson<Record<string, unknown>>(join(DATASET_DIR, 'zyte-baseline-outputs', file));
  const output = (typeof raw.output === 'object' && raw.output !== null ? raw.output : raw) as Record<
    string,
    { articleBody?: string }
  >;
  return new Map(Object.entries(output).map(([id, entry]) => [id, entry?.articleBody ?? '']));
}

export function zyteBaselineFiles(): string[] {
  return readdirSync(join(DATASET_DIR, 'zyte-baseline-outputs'))
    .filter((name) => name.endsWith('.json'))
    .sort();
}

interface WcxbTruth {
  url?: string;
  file_id?: string;
  _internal?: { page_type?: { primary?: string } };
  ground_truth?: { main_content?: string };
}

export function wcxbPages(): WcxbPage[] {
  const dir = join(DATASET_DIR, 'wcxb-dev');
  return readdirSync(join(dir, 'ground-truth'))
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => {
      const id = name.slice(0, -'.json'.length);
      const entry = readJson<WcxbTruth>(join(dir, 'ground-truth', name));
      return {
        id,
        url: entry.url ?? `https://example.invalid/${id}`,
        pageType: entry._internal?.page_type?.primary ?? 'unknown',
        truth: entry.ground_truth?.main_content ?? '',
        html: () => gunzipText(join(dir, 'html', `${id}.html.gz`)),
      };
    })
    .filter((page) => existsSync(join(dir, 'html', `${page.id}.html.gz`)))
    .filter((_, index) => index % sampleEvery() === 0);
}

/** --sample N keeps every Nth WCXB page (quick runs while developing). */
function sampleEvery(): number {
  const index = process.argv.indexOf('--sample');
  return Math.max(1, Number(index >= 0 ? process.argv[index + 1] : 1) || 1);
}

export function snippetPages(): SnippetPage[] {
  const dir = join(DATASET_DIR, 'trafilatura-eval');
  const entries = readJson<Record<string, { file: string; with?: string[]; without?: string[] }>>(
    join(dir, 'evaldata-sample.json'),
  );
  return Object.entries(entries)
    .map(([url, entry]) => ({
      id: entry.file,
      url,
      with: entry.with ?? [],
      without: entry.without ?? [],
      path: join(dir, 'html', `${entry.file}.gz`),
    }))
    .filter((page) => existsSync(page.path))
    .map(({ path, ...page }) => ({ ...page, html: () => gunzipText(path) }));
}
