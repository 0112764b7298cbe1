/** Content words of a text: the search plugin's stemmed tokens without stop words, so both sides match alike. */
import { tokenize } from '../../../services/ranking/relevance.js';

const STOP_WORDS = new Set(
  (
    'a an and are as at be been but by can did do does for from had has have how i if in into is it its me my no not of on or our ' +
    'so than that the their them then there these they this to was we were what when where which who whom why will with you your ' +
    'about after all also any could each he her his just more most other over she should some such up us very would'
  ).split(' '),
);

export function contentTerms(text: string): string[] {
  return tokenize(text).filter((term) => !STOP_WORDS.has(term) && term.length > 1);
}
