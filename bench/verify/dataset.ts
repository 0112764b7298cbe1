/**
 * Climate-FEVER (Diggelmann et al. 2020): 1,535 real claims, each with five
 * Wikipedia sentences retrieved for it and a claim label (SUPPORTS, REFUTES,
 * NOT_ENOUGH_INFO, DISPUTED). Read from ../shared (no licence file: it is
 * never copied into the project). Each claim's sentences become pages, one
 * per Wikipedia article, as the verify endpoint would read them.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

export type GoldLabel = 'SUPPORTS' | 'REFUTES' | 'NOT_ENOUGH_INFO' | 'DISPUTED';
export type Label3 = 'true' | 'false' | 'unverifiable';
export const LABELS3: Label3[] = ['true', 'false', 'unverifiable'];

export interface BenchClaim {
  id: string;
  index: number;
  claim: string;
  gold: GoldLabel;
  /** The gold label on the verdict scale; null for DISPUTED (reported apart). */
  gold3: Label3 | null;
  /** One page per Wikipedia article: title and its sentences in the dataset's order. */
  pages: Array<{ slug: string; title: string; sentences: string[] }>;
  split: 'dev' | 'test';
}

export const DATASET_FILE = resolve(
  process.env.CLIMATE_FEVER_FILE ?? '../shared/fixtures/datasets/claims/climate-fever/climate-fever.jsonl',
);

const TO3: Record<GoldLabel, Label3 | null> = {
  SUPPORTS: 'true',
  REFUTES: 'false',
  NOT_ENOUGH_INFO: 'unverifiable',
  DISPUTED: null,
};

export function loadClaims(): BenchClaim[] {
  if (!existsSync(DATASET_FILE)) throw new Error(`Climate-FEVER not found at ${DATASET_FILE} (set CLIMATE_FEVER_FILE)`);
  const rows = readFileSync(DATASET_FILE, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map(
      (line) =>
        JSON.parse(line) as {
          claim_id: string;
          claim: string;
          claim_label: GoldLabel;
          evidences: Array<{ article: string; evidence: string }>;
        },
    );
  return rows.map((row, index) => {
    const byArticle = new Map<string, string[]>();
    for (const e of row.evidences) byArticle.set(e.article, [...(byArticle.get(e.article) ?? []), e.evidence]);
    const pages = [...byArticle].map(([title, sentences], i) => ({ slug: `${i}`, title, sentences }));
    // Alternate claims: the development half (even positions) sets the rules' constants and the
    // calibration; the test half (odd) is reported as held out.
    return {
      id: row.claim_id,
      index,
      claim: row.claim,
      gold: row.claim_label,
      gold3: TO3[row.claim_label],
      pages,
      split: index % 2 === 0 ? 'dev' : 'test',
    };
  });
}
