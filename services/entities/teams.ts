/**
 * Sports teams named by their town and a plural nickname ("Toronto Blue
 * Jays", "Boston Braves", "Tampa Bay Devil Rays"). The town's words make the
 * tagger call the whole name a place, and the text soon calls the team by
 * its nickname alone ("traded to the Athletics", "with the Blue Jays"), which
 * the tagger does not know for a name at all. In the wikigold training
 * articles each such nickname after "the" is the team (9 of 9).
 */
import type { TokenSpan } from './spans.js';
import { isCapitalised } from './tokenize.js';

/** A plural word: "Jays", "Athletics", "Canucks" (not "Congress"). */
const PLURAL = /\p{Ll}s$/u;
/** Plurals that end the names of places ("Florida Keys", "Yorkshire Dales", "Blue Mountains"), not teams. */
const PLACE_PLURAL =
  /^(?:Keys|Dales|Hills|Heights|Falls|Highlands|Lowlands|Plains|Springs|Lakes|Islands|Isles|Mountains|Woods|Fields|Gardens|Downs|Sands|Flats|Rapids|Narrows|Glades|Shores|Banks|Rocks|Cliffs|Alps|Rockies|Territories|States|Provinces|Midlands)$/;

/**
 * How many words of a team's name name its town (0 when the name is no town
 * and nickname): the name ends with a plural that is no place's ("Florida
 * Keys"), starts with a known place, is capitalised throughout and is not
 * itself a known place.
 */
function townWords(words: readonly string[], isPlace: (words: readonly string[]) => boolean): number {
  const last = words[words.length - 1]!;
  if (!PLURAL.test(last) || last.endsWith('ss') || PLACE_PLURAL.test(last) || isPlace(words)) return 0;
  for (let k = 1; k < words.length; k++)
    if (isPlace(words.slice(0, k)) && words.slice(k).every(isCapitalised)) return k;
  return 0;
}

/**
 * A town-and-nickname name typed a place is a team; every ending of it after
 * the town ("Devil Rays", "Rays") names the team too: a span of that string
 * becomes an organization, and so does that string right after "the" where
 * the tagger found nothing.
 */
export function teamsByNickname(
  sentences: readonly (readonly string[])[],
  spans: readonly TokenSpan[][],
  isPlace: (words: readonly string[]) => boolean,
): TokenSpan[][] {
  const nicknames = new Set<string>();
  const named = spans.map((sentenceSpans, s) =>
    sentenceSpans.map((span) => {
      const words = sentences[s]!.slice(span.start, span.end);
      const town = townWords(words, isPlace);
      if (town === 0 || (span.type !== 'ORG' && span.type !== 'LOC')) return span;
      for (let k = town; k < words.length; k++) nicknames.add(words.slice(k).join(' '));
      return { ...span, type: 'ORG' as const };
    }),
  );
  if (nicknames.size === 0) return named;
  return named.map((sentenceSpans, s) => {
    const words = sentences[s]!;
    const result = sentenceSpans.map((span) =>
      nicknames.has(words.slice(span.start, span.end).join(' ')) ? { ...span, type: 'ORG' as const } : span,
    );
    const covered = (i: number) => result.some((span) => i >= span.start && i < span.end);
    for (let i = 1; i < words.length; i++) {
      if (words[i - 1] !== 'the' || !isCapitalised(words[i]) || covered(i)) continue;
      let end = i;
      while (isCapitalised(words[end]) && !covered(end)) end += 1;
      if (nicknames.has(words.slice(i, end).join(' '))) result.push({ type: 'ORG', start: i, end });
    }
    return result.sort((a, b) => a.start - b.start);
  });
}
