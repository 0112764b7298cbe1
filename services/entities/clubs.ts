/**
 * Sports clubs named after their towns ("played with Footscray and North
 * Melbourne", "signed with Coburg", "North Melbourne player Michael
 * Gaudion"): the words of the name are a place's, so the tagger and the
 * typer call them places; what the text does with the name says it is a
 * club. One such use makes every mention of the string in the text a club,
 * unless the text also puts something "in" it (a town you live in is a
 * place, whatever plays there).
 */
import type { TokenSpan } from './spans.js';

/** Words before a name that make it a club: "played with", "signed for", "coached", "captained". */
const CLUB_BEFORE = /^(?:(?:played|signed|playing|signing) (?:for|with)|coached|captained)$/;
/** Words after a name that make it a club: "Footscray player", "Coburg coach". */
const CLUB_AFTER = /^(?:player|players|footballer|footballers|coach)$/;
/** Words before a name that make it a place, whatever else the text does with it. */
const PLACE_BEFORE = /^(?:in|near|from|to)$/;

export function clubsNamedAfterPlaces(
  sentences: readonly (readonly string[])[],
  spans: readonly TokenSpan[][],
): TokenSpan[][] {
  const clubs = new Set<string>();
  const places = new Set<string>();
  spans.forEach((sentenceSpans, s) => {
    const words = sentences[s]!;
    const lower = (k: number) => words[k]?.toLowerCase() ?? '';
    for (const span of sentenceSpans) {
      if (span.type !== 'LOC') continue;
      const name = words.slice(span.start, span.end).join(' ');
      const before = `${lower(span.start - 2)} ${lower(span.start - 1)}`;
      if (PLACE_BEFORE.test(lower(span.start - 1))) places.add(name);
      else if (CLUB_BEFORE.test(before) || CLUB_BEFORE.test(lower(span.start - 1)) || CLUB_AFTER.test(lower(span.end)))
        clubs.add(name);
    }
  });
  const isClub = (name: string) => clubs.has(name) && !places.has(name);
  return spans.map((sentenceSpans, s) =>
    sentenceSpans.map((span) =>
      span.type === 'LOC' && isClub(sentences[s]!.slice(span.start, span.end).join(' '))
        ? { ...span, type: 'ORG' as const }
        : span,
    ),
  );
}
