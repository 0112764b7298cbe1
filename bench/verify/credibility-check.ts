/**
 * The label mapping of plugins/verify/credibility on the real rows of Baly et al.'s
 * MBFC corpora (read from ../shared; they may not be copied into the project):
 * every row loads, and every label it carries maps onto a spec value.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { biasFromBaly, factualFromBaly } from '../../plugins/verify/credibility/labels.js';
import { loadRatingsFile, type DomainRating } from '../../plugins/verify/credibility/ratings.js';

const DIR = resolve(process.env.CREDIBILITY_DATASET_DIR ?? '../shared/fixtures/datasets/credibility/baly2018-mbfc');

export function checkCredibilityMapping(): void {
  const files = ['emnlp18_corpus.tsv', 'acl2020_corpus.tsv'].map((f) => join(DIR, f)).filter(existsSync);
  if (files.length === 0) {
    console.log(`Credibility mapping: Baly et al. corpora not found at ${DIR}; skipped\n`);
    return;
  }
  for (const file of files) {
    const rows = readFileSync(file, 'utf8')
      .split('\n')
      .slice(1)
      .filter(Boolean)
      .map((line) => line.split('\t'));
    const facts = new Map<string, string>();
    const biases = new Map<string, string>();
    for (const row of rows) {
      facts.set(row[3]!, factualFromBaly(row[3]!) ?? 'UNMAPPED');
      biases.set(row[4]!, biasFromBaly(row[4]!) ?? 'UNMAPPED');
    }
    const into = new Map<string, DomainRating>();
    loadRatingsFile(file, undefined, into);
    const labelled = [...into.values()].filter((r) => r.factual && r.bias).length;
    console.log(
      `Credibility mapping on ${file.split('/').pop()}: ${rows.length} rows, ${into.size} domains, ${labelled} with both labels mapped`,
    );
    console.log(`  factuality: ${[...facts].map(([from, to]) => `${from} → ${to}`).join(', ')}`);
    console.log(`  bias: ${[...biases].map(([from, to]) => `${from} → ${to}`).join(', ')}`);
  }
  console.log('');
}
