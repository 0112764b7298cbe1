/**
 * Replays one page of the extraction fuzz (bench:fuzz prints page and seed):
 *   node dist/bench/fuzz-replay.js <page id> <seed> [out.html]
 * prints the mutation, the check's verdict and the extraction's outcome, and
 * writes the mutated page (its bytes, for encoding mutations) to out.html —
 * the start of a fixture for a failure found.
 */
import { writeFileSync } from 'node:fs';
import { wcxbPages, zytePages } from './extract/datasets.js';
import { baselineOf, checkMutation, extractText } from './fuzz/fuzz-check.js';
import { mutatePage } from './fuzz/page-mutator.js';

const [id, seedText, out] = process.argv.slice(2);
const page = [...zytePages(), ...wcxbPages()].find((candidate) => candidate.id === id);
if (!page || !seedText) {
  console.error('usage: fuzz-replay <page id> <seed> [out.html] (page ids as bench:fuzz prints them)');
  process.exit(2);
}
const html = page.html();
const mutated = mutatePage(html, Number(seedText));
const baseline = baselineOf(html, extractText(html, page.url));
const outcome = checkMutation(baseline, mutated, page.url);
console.log(`${id} seed ${seedText} [${mutated.kinds.join('+')}] ${mutated.notes.join('; ')}`);
console.log(
  `url ${page.url}; verdict ${outcome.verdict}: ${outcome.detail} (${outcome.kept}/${outcome.remaining} kept)`,
);
console.log(`unmutated: success ${baseline.result.success}, ${baseline.result.text.length} characters`);
if (out) {
  writeFileSync(out, mutated.bytes ?? mutated.html);
  console.log(`wrote ${out}${mutated.contentTypeHeader ? ` (Content-Type: ${mutated.contentTypeHeader})` : ''}`);
}
