/**
 * Words a question uses to frame what it asks, not to name what it is about:
 * "What ROLE does X PLAY in Y", "What METHODS were USED to MEASURE …", "What
 * does the president MENTION REGARDING …", "How MANY …". They hold little of
 * what picks the answering page out: a distractor that happens to share one of
 * them is no closer to the answer. English; stemmed as tokens.ts stems.
 */
import { stem } from './tokens.js';

const FRAMING_WORDS =
  // quantity and emphasis
  (
    'many much several various specific particular main major key primary principal significant important ' +
    'notable certain overall ' +
    // what kind of answer is asked for
    'role purpose factor component aspect feature characteristic type kind sort way method technique ' +
    'approach reason result outcome ' +
    'effect impact implication significance consequence detail example relationship difference finding ' +
    'evidence strategy ' +
    // the source and its act of saying
    'text passage article paper document author study analysis research researcher experiment investigation ' +
    'statement ' +
    'describe identify explain mention discuss propose suggest state say note report indicate show reveal ' +
    'highlight emphasize ' +
    'address regard regarding according relate concern involve use utilize employ apply conduct perform ' +
    'undertake make play ' +
    'consider assess evaluate determine find observe list provide give outline'
  ).split(' ');

const FRAMING: ReadonlySet<string> = new Set(
  FRAMING_WORDS.flatMap((word) => [word, stem(word), stem(`${word}s`), stem(`${word}ed`)]),
);

/** Whether a content term (as tokens.ts gives it) only frames the question. */
export function isFramingTerm(term: string): boolean {
  return FRAMING.has(term);
}
