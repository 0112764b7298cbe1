/**
 * Lexical relevance of a result to the query, in 0..1 (see SCORING.md).
 *
 *   term strength = 1 if the term is in the title, else 0.6 if in the snippet or text, else 0
 *   coverage      = Σ term strength / number of distinct query terms
 *   score         = min(1, coverage + 0.2 if the whole query appears as a phrase)
 *
 * A result with no query term scores 0; one matching one of three terms only
 * in its snippet scores 0.2. So the default threshold 0.15 drops results that
 * share nothing with the query and keeps any real match. Presence, not
 * frequency, is counted: adding an occurrence never lowers the score, and
 * long pages gain nothing from repeating a word.
 */

const TITLE_STRENGTH = 1;
const BODY_STRENGTH = 0.6;
const PHRASE_BONUS = 0.2;

const STOP_WORDS = new Set(
  (
    'a an and are as at be been but by can did do does for from had has have how i if in into is it its me my no not of on or our ' +
    'so than that the their them then there these they this to was we were what when where which who whom why will with you your'
  ).split(' '),
);

/** Scripts written without spaces: split into overlapping character pairs so words inside a run can match. */
const UNSPACED_RUN = /^[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}]+$/u;

/** Lower-cased, accent-folded, stemmed word tokens, stop words left in (phrase matching needs them). */
export function tokenize(text: string): string[] {
  const words = text.toLowerCase().normalize('NFKD').replace(/\p{M}/gu, '').match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.flatMap((word) => (UNSPACED_RUN.test(word) ? bigrams(word) : [stem(word)]));
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

/** Whether a token (as tokenize() gives it) is a stop word. */
export function isStopWord(token: string): boolean {
  return STOP_WORDS.has(token);
}

function queryTerms(tokens: string[]): string[] {
  const content = tokens.filter((t) => !STOP_WORDS.has(t));
  // A query of stop words only ("the who") still has to match something.
  return [...new Set(content.length > 0 ? content : tokens)];
}

function containsSequence(haystack: string[], needle: string[]): boolean {
  outer: for (let start = 0; start + needle.length <= haystack.length; start++) {
    for (let i = 0; i < needle.length; i++) if (haystack[start + i] !== needle[i]) continue outer;
    return true;
  }
  return false;
}

export interface RelevanceDoc {
  title: string;
  snippet: string;
  text?: string;
}

export function lexicalRelevance(query: string, doc: RelevanceDoc): number {
  const queryTokens = tokenize(query);
  const terms = queryTerms(queryTokens);
  if (terms.length === 0) return 1;

  const titleTokens = tokenize(doc.title);
  const bodyTokens = tokenize(`${doc.snippet}\n${doc.text ?? ''}`);
  const inTitle = new Set(titleTokens);
  const inBody = new Set(bodyTokens);

  let strength = 0;
  for (const term of terms) strength += inTitle.has(term) ? TITLE_STRENGTH : inBody.has(term) ? BODY_STRENGTH : 0;
  const coverage = strength / terms.length;

  // A one-word query has no phrase to find; its coverage already says it all.
  const phrase = queryTokens.length > 1 && (containsSequence(titleTokens, queryTokens) || containsSequence(bodyTokens, queryTokens));
  return Math.min(1, coverage + (phrase ? PHRASE_BONUS : 0));
}

export function filterByRelevance<T>(
  items: T[],
  query: string,
  minScore: number,
  get: (item: T) => RelevanceDoc,
): { kept: T[]; dropped: number; scores: number[] } {
  const scores = items.map((item) => lexicalRelevance(query, get(item)));
  const kept = items.filter((_, i) => scores[i]! >= minScore);
  return { kept, dropped: items.length - kept.length, scores };
}
