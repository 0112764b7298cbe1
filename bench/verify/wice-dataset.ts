/**
 * WiCE (Kamoi et al., EMNLP 2023), dev split: 349 Wikipedia sentences, each
 * with the whole web page it cites split into lines (navigation, boilerplate
 * and other topics included) and a label: supported, partially_supported,
 * not_supported. Read from ../shared (annotations ODC-BY, page text under
 * Common Crawl's terms): used from benchmarks only, never copied into the
 * project's fixtures.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

export type WiceLabel = 'supported' | 'partially_supported' | 'not_supported';
export const WICE_LABELS: WiceLabel[] = ['supported', 'partially_supported', 'not_supported'];

export interface WiceClaim {
  id: string;
  index: number;
  claim: string;
  gold: WiceLabel;
  /** The page's lines as the dataset gives them, meta-data lines ("(meta data) TITLE: …") taken out. */
  lines: string[];
  title: string;
  /** Indices into `lines` of the sentences annotators marked as supporting (any of the sets). */
  supporting: Set<number>;
  /** Held-out checks: rules are set on `fit` (even positions) and reported on `held_out` (odd). */
  half: 'fit' | 'held_out';
}

export const WICE_FILE = resolve(process.env.WICE_FILE ?? '../shared/fixtures/datasets/claims/wice-dev/dev.jsonl');
const META = /^\(meta data\) ([A-Z ]+): ?(.*)$/;

export function wiceAvailable(): boolean {
  return existsSync(WICE_FILE);
}

export function loadWice(): WiceClaim[] {
  if (!existsSync(WICE_FILE)) throw new Error(`WiCE not found at ${WICE_FILE} (set WICE_FILE)`);
  const rows = readFileSync(WICE_FILE, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map(
      (line) =>
        JSON.parse(line) as {
          label: WiceLabel;
          claim: string;
          evidence: string[];
          supporting_sentences: number[][];
          meta: { id: string };
        },
    );
  return rows.map((row, index) => {
    let title = '';
    const lines: string[] = [];
    const renumber = new Map<number, number>();
    row.evidence.forEach((line, i) => {
      const meta = META.exec(line);
      if (meta) {
        if (meta[1] === 'TITLE' && !title) title = meta[2]!;
        return;
      }
      renumber.set(i, lines.length);
      lines.push(line);
    });
    const supporting = new Set(
      row.supporting_sentences.flat().flatMap((i) => (renumber.has(i) ? [renumber.get(i)!] : [])),
    );
    // 21 rows have an empty or no TITLE line; their first line is the page title. A search result needs one (engines
    // drop untitled results).
    return {
      id: row.meta.id,
      index,
      claim: row.claim,
      gold: row.label,
      lines,
      title: title || (lines[0] ?? ''),
      supporting,
      half: index % 2 === 0 ? 'fit' : 'held_out',
    };
  });
}
