/**
 * Types and bounds that the shape of a name settles, whatever the tagger
 * said: a named building of an article is an organization, a person's name
 * cannot end with an organisation word, "City of X" is the place, a numbered
 * military unit takes its number, and two places joined by "and" before a
 * railway's word are one name. Each is fitted on the wikigold training
 * articles (counts in the comments) and checked on its three development
 * folds (docs/knowledge.md).
 */
import type { TokenSpan } from './spans.js';

/**
 * Texts of at least this many sentences are articles (a page, a news story)
 * rather than posts. The two kinds follow different conventions: wikigold's
 * articles call a named building an organization and leave a person's title
 * out of the name, while the tweets of the Broad Twitter Corpus call the
 * building a place and take the title in ("President Obama": 90 of 126).
 */
const ARTICLE_SENTENCES = 3;

export const isArticle = (sentences: readonly (readonly string[])[]) => sentences.length >= ARTICLE_SENTENCES;

const mapSpans = (spans: readonly TokenSpan[][], retype: (span: TokenSpan, s: number) => TokenSpan) =>
  spans.map((sentenceSpans, s) => sentenceSpans.map((span) => retype(span, s)));

/** The last word of a named building ("Carnegie Hall", "Cary Towne Center", "Mark Hopkins Hotel"). */
const BUILDING = /^(?:Hall|Center|Centre|Mall|Hotel|Hospital|Airport|Tower|Museum)$/;

/**
 * In an article, a place whose name ends with a building's word is an
 * organization (wikigold's training articles: Hospital 4 of 4, Hotel 2 of
 * 2, Airport 2 of 2, Air Base 2 of 2, Center 7 of 10, Hall 3 of 4), unless
 * it is a town's centre or hall ("Hayward City Center").
 */
export function buildingsInArticles(
  sentences: readonly (readonly string[])[],
  spans: readonly TokenSpan[][],
): TokenSpan[][] {
  if (!isArticle(sentences)) return spans.map((sentenceSpans) => [...sentenceSpans]);
  return mapSpans(spans, (span, s) => {
    const words = sentences[s]!.slice(span.start, span.end);
    const last = words[words.length - 1]!;
    const before = words[words.length - 2];
    const building = BUILDING.test(last) || (before === 'Air' && /^(?:Base|Station)$/.test(last));
    return span.type === 'LOC' && before !== undefined && building && !/^(?:City|Town)$/.test(before)
      ? { ...span, type: 'ORG' }
      : span;
  });
}

/**
 * Words that end an organisation's name beside the gazetteer's keywords and designators: "Jimmy Manopo Band", "Hinkley
 * Locomotive Works".
 */
const ORGANISATION_END = /^(?:Band|Hotel|Works)$/;

/**
 * A person's name never ends with an organisation word (no gold person in
 * the training sets does): such a span typed a person is an organization
 * ("Mark Hopkins Hotel", "Jimmy Manopo Band").
 */
export function organisationsByLastWord(
  sentences: readonly (readonly string[])[],
  spans: readonly TokenSpan[][],
  isOrganisationWord: (word: string) => boolean,
): TokenSpan[][] {
  return mapSpans(spans, (span, s) => {
    const last = sentences[s]![span.end - 1]!;
    return span.type === 'PER' &&
      span.end - span.start >= 2 &&
      (isOrganisationWord(last) || ORGANISATION_END.test(last))
      ? { ...span, type: 'ORG' }
      : span;
  });
}

/** "City of Little Falls", "City Of Hayward" typed an organization is the place (each in the training sets is). */
export function citiesOfPlaces(
  sentences: readonly (readonly string[])[],
  spans: readonly TokenSpan[][],
): TokenSpan[][] {
  return mapSpans(spans, (span, s) => {
    const words = sentences[s]!;
    return span.type === 'ORG' &&
      span.end - span.start >= 3 &&
      /^(?:City|Town)$/.test(words[span.start]!) &&
      /^[Oo]f$/.test(words[span.start + 1]!)
      ? { ...span, type: 'LOC' }
      : span;
  });
}

const ORDINAL =
  /^(?:First|Second|Third|Fourth|Fifth|Sixth|Seventh|Eighth|Ninth|Tenth|Eleventh|Twelfth|Thirteenth|Fourteenth|Fifteenth|Sixteenth|Seventeenth|Eighteenth|Nineteenth|Twentieth|\d+(?:st|nd|rd|th))$/;
const UNIT = /^(?:Division|Wing|Group|Squadron|Corps|Regiment|Brigade|Fleet|Army|Force|Command|Battalion)$/;

/**
 * A military unit's number is part of its name ("Eighth Air Force", "65 Air
 * Division"): the ordinal or number the tagger left before a unit's name
 * joins it, and the unit is an organization.
 */
export function numberedUnits(sentences: readonly (readonly string[])[], spans: readonly TokenSpan[][]): TokenSpan[][] {
  return spans.map((sentenceSpans, s) => {
    const words = sentences[s]!;
    return sentenceSpans.map((span) => {
      const name = words.slice(span.start, span.end);
      if ((span.type !== 'ORG' && span.type !== 'MISC') || !name.some((word) => UNIT.test(word))) return span;
      const before = words[span.start - 1] ?? '';
      const numbered = ORDINAL.test(before) || (/^\d{1,3}$/.test(before) && UNIT.test(name[name.length - 1]!));
      return numbered && !sentenceSpans.some((other) => other.end === span.start)
        ? { type: 'ORG', start: span.start - 1, end: span.end }
        : span;
    });
  });
}

/**
 * "Portland and Ogdensburg Railroad", "Franklin and Megantic Railway": a
 * place, "and", and a name ending with an organisation word right after it
 * are one name, of the second part's type.
 */
export function placesJoinedByAnd(
  sentences: readonly (readonly string[])[],
  spans: readonly TokenSpan[][],
  isOrgKeyword: (word: string) => boolean,
): TokenSpan[][] {
  return spans.map((sentenceSpans, s) => {
    const words = sentences[s]!;
    const result: TokenSpan[] = [];
    for (let k = 0; k < sentenceSpans.length; k++) {
      const first = sentenceSpans[k]!;
      const second = sentenceSpans[k + 1];
      if (
        second &&
        first.type === 'LOC' &&
        second.start === first.end + 1 &&
        /^(?:and|&)$/.test(words[first.end]!) &&
        isOrgKeyword(words[second.end - 1]!)
      ) {
        result.push({ type: second.type === 'LOC' ? 'LOC' : 'ORG', start: first.start, end: second.end });
        k += 1;
      } else result.push(first);
    }
    return result;
  });
}
