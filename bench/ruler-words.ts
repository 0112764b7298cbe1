/**
 * The words the benchmarks measure with (content words of gold excerpts, the
 * simulated engine's BM25, hard negatives). The stop-word list is fixed here,
 * apart from the product's (services/ranking/tokens.ts), so that changing what
 * the product ignores changes the figures through the product only, never
 * through the ruler. The tokenizer is the product's.
 */
import { tokenize } from '../services/ranking/tokens.js';

const RULER_STOP_WORDS = new Set(
  (
    'a an and are as at be been but by can did do does for from had has have how i if in into is it its me ' +
    'my no not of on or our ' +
    'so than that the their them then there these they this to was we were what when where which who whom ' +
    'why will with you your'
  ).split(' '),
);

/** Stemmed tokens of a text without the ruler's stop words, in order. */
export function rulerWords(text: string): string[] {
  return tokenize(text).filter((token) => !RULER_STOP_WORDS.has(token));
}
