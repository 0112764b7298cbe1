/**
 * The words every ranking and matching step sees: one tokenizer, one light
 * stemmer and one stop-word list, so a query and a text are cut the same way
 * whichever scorer reads them (search relevance, passage scores, BM25, verify's
 * evidence terms, key phrases, the test embedder).
 */

/**
 * English function words: articles, pronouns, auxiliaries, prepositions,
 * conjunctions and the question words. Lower-case and unstemmed: stem() leaves
 * them as they are, so a token is a stop word whether or not it was stemmed.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again against all also am an and any are as at be because been before being below ' +
    'between both but by ' +
    'can could did do does doing down during each few for from further had has have having he her here hers ' +
    'herself him himself his how ' +
    'i if in into is it its itself just me more most my myself no nor not of off on once only or other our ' +
    'ours out over own ' +
    'same she should so some such than that the their theirs them themselves then there these they this ' +
    'those through to too ' +
    'under until up upon us very was we were what when where which while who whom why will with within ' +
    'without would yet you your yours'
  ).split(' '),
);

/** Scripts written without spaces: split into overlapping character pairs so words inside a run can match. */
const UNSPACED_RUN = /^[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}]+$/u;

const NON_ASCII = /[^\x00-\x7f]/;

/**
 * Lower-cased, accent-folded words (runs of letters and digits), neither stemmed nor cut into
 * pairs: what tokenize() starts from, for comparing texts word for word (shingles, word bags).
 */
export function words(text: string): string[] {
  // Most text is plain ASCII: there folding changes nothing and letters are a-z, so the Unicode passes are skipped
  // (same words, ~2× faster).
  if (!NON_ASCII.test(text)) return text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
  return (
    text
      .toLowerCase()
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

/** Lower-cased, accent-folded, stemmed word tokens, stop words left in (phrase matching needs them). */
export function tokenize(text: string): string[] {
  if (!NON_ASCII.test(text)) return words(text).map(stem);
  return words(text).flatMap((word) => (UNSPACED_RUN.test(word) ? bigrams(word) : [stem(word)]));
}

/**
 * A text's words as written, for building a query from it: split at white space, punctuation
 * trimmed from each end, case and inner marks (it's, U.S., COVID-19) kept.
 */
export function writtenWords(text: string): string[] {
  return text
    .split(/\s+/)
    .map((word) => word.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''))
    .filter((word) => word.length > 0);
}

function bigrams(run: string): string[] {
  const chars = [...run];
  if (chars.length < 2) return chars;
  return chars.slice(1).map((char, i) => chars[i] + char);
}

/**
 * Light English stemming, enough to match plural and -ing/-ed forms:
 * "studies"/"studied" → "study", "running" → "run", "used"/"uses"/"using" → "us".
 * Both sides go through it, so a stem only has to be consistent, not a real word.
 */
export function stem(word: string): string {
  if (!/^[a-z]+$/.test(word) || STOP_WORDS.has(word)) return word;
  let w = word;
  if (w.length > 4 && (w.endsWith('ies') || w.endsWith('ied'))) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith('s') && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);
  const suffix = w.endsWith('ing') ? 3 : w.endsWith('ed') ? 2 : 0;
  if (suffix > 0) {
    const base = w.slice(0, -suffix);
    // "string", "thing", "red" keep their ending: the rest would have no vowel or be too short.
    if (base.length >= 2 && /[aeiouy]/.test(base)) {
      w = base;
      if (/([^aeiouylsz])\1$/.test(w)) w = w.slice(0, -1); // running → runn → run
      return w;
    }
  }
  // The -e that -ing/-ed swallow: make/making → mak, free/freed → fre.
  if (w.length >= 3 && w.endsWith('e')) w = w.slice(0, -1);
  return w;
}

/** Whether a token (as tokenize() gives it, or a lower-cased word) is a stop word. */
export function isStopWord(token: string): boolean {
  return STOP_WORDS.has(token);
}

/** The tokens of a text that carry its content: stemmed, stop words out. */
export function contentTokens(text: string): string[] {
  return tokenize(text).filter((token) => !STOP_WORDS.has(token));
}

/**
 * Content tokens of two characters or more: the terms BM25, keywords and evidence coverage count (a lone "s" or "t" is
 * a clitic).
 */
export function contentTerms(text: string): string[] {
  return contentTokens(text).filter((token) => token.length > 1);
}
