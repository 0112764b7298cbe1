/**
 * Sentences a lower-cased text runs together. Unicode's sentence rules
 * (Intl.Segmenter, chunking/segmenters.ts) never end a sentence at a full stop
 * followed by a lower-case letter, so in text written all in lower case (a
 * filing's extracted text, a transcript) a "sentence" can run a whole
 * paragraph, too long to quote and too diluted to rank. This cuts such a run
 * at ". " before a lower-case letter, except after an abbreviation, a single
 * letter or a dotted initialism (inc. / e.g. / u.s.); each piece stays
 * verbatim, with its full stop.
 */

const ABBREVIATIONS = new Set(
  (
    'inc corp co ltd llc etc vs approx no nos mr mrs ms dr st jr sr fig vol ed eds al cf jan feb mar apr jun ' +
    'jul aug sep sept oct nov dec'
  ).split(' '),
);
/** A word and the full stop after it, then a space and a lower-case letter. */
const STOP_BEFORE_LOWER = /([\p{L}\p{N}%)\]]+)\. (?=\p{Ll})/gu;

/** The pieces of `sentence`, cut where a run-on lower-case text starts a new sentence; one piece when there is none. */
export function splitRunOnSentences(sentence: string): string[] {
  const pieces: string[] = [];
  let start = 0;
  for (const match of sentence.matchAll(STOP_BEFORE_LOWER)) {
    const word = match[1]!;
    const at = match.index;
    if (ABBREVIATIONS.has(word.toLowerCase()) || [...word].length === 1 || sentence[at - 1] === '.') continue;
    const end = at + word.length + 1;
    pieces.push(sentence.slice(start, end).trim());
    start = end + 1;
  }
  pieces.push(sentence.slice(start).trim());
  return pieces.filter((piece) => piece.length > 0);
}
