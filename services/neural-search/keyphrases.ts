/**
 * Key phrases of a text without a model: candidate phrases are runs of one to
 * three content words (no stop words, no numbers alone) and are scored by
 * frequency × length bonus, RAKE-like. Good enough to turn a page into a
 * search query, or recent results into next-search suggestions.
 */
import { isStopWord } from '../ranking/tokens.js';

/** Words too general to make a phrase of, beside the stop words: light verbs, fillers, discourse words. */
const GENERIC_WORDS = new Set(
  (
    'let like made make many may might much must new now one said say says use used using ' +
    'get got however since still though via per vs etc way ways thing things lot lots really'
  ).split(' '),
);

export interface KeyPhrase {
  phrase: string;
  score: number;
  count: number;
}

export function keyPhrases(text: string, limit = 10, exclude: Iterable<string> = []): KeyPhrase[] {
  const excluded = new Set([...exclude].map((w) => w.toLowerCase()));
  const counts = new Map<string, number>();
  const words = text.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu) ?? [];
  let run: string[] = [];
  const flush = (): void => {
    for (let size = 1; size <= 3; size++) {
      for (let i = 0; i + size <= run.length; i++) {
        const phrase = run.slice(i, i + size).join(' ');
        counts.set(phrase, (counts.get(phrase) ?? 0) + 1);
      }
    }
    run = [];
  };
  for (const word of words) {
    const content =
      !isStopWord(word) && !GENERIC_WORDS.has(word) && !/^\d+$/.test(word) && word.length > 2 && !excluded.has(word);
    if (content) run.push(word);
    else flush();
  }
  flush();
  const scored = [...counts]
    .filter(([, count]) => count >= 1)
    .map(([phrase, count]) => ({ phrase, count, score: count * (1 + 0.5 * (phrase.split(' ').length - 1)) }))
    .sort(
      (a, b) =>
        b.score - a.score ||
        b.phrase.split(' ').length - a.phrase.split(' ').length ||
        a.phrase.localeCompare(b.phrase),
    );
  // A phrase inside a stronger chosen one adds nothing.
  const chosen: KeyPhrase[] = [];
  for (const candidate of scored) {
    if (chosen.length >= limit) break;
    if (chosen.some((c) => c.phrase.includes(candidate.phrase) || candidate.phrase.includes(c.phrase))) continue;
    chosen.push(candidate);
  }
  return chosen;
}
