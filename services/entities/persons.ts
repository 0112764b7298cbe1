/**
 * Rules for people's names over a document: an article leaves a title out
 * of the name ("Colonel Meredith H. Shade" → "Meredith H. Shade"), a
 * person's surname names that person wherever it stands alone, and a
 * nickname in quotes belongs to the name around it.
 */
import { isArticle } from './name-shapes.js';
import { personSurnames, type TokenSpan } from './spans.js';
import { isCapitalised } from './tokenize.js';

/**
 * Titles and ranks before a name. Royal and noble ones stay ("King Carlos
 * I", "Lord Stanley": wikigold keeps them in the name).
 */
const TITLE =
  /^(?:Mr|Mrs|Ms|Dr|Prof|Professor|Sir|President|Senator|Governor|Mayor|Judge|Justice|General|Colonel|Captain|Lieutenant|Sergeant|Admiral|Major|Brigadier|Commander|Marshal|Gen|Col|Capt|Lt|Sgt|Gov|Sen|Rep|Rev|Reverend|Father|Chancellor|Minister)\.?$/;

/**
 * In an article, the titles at the start of a person's name are left out of
 * it: 34 of 38 titled names in the wikigold training articles and every one
 * in the hand-annotated news leave the title out; tweets keep it
 * (name-shapes.ts), so posts are left as they are.
 */
export function titlesLeftOut(sentences: readonly (readonly string[])[], spans: readonly TokenSpan[][]): TokenSpan[][] {
  if (!isArticle(sentences)) return spans.map((sentenceSpans) => [...sentenceSpans]);
  return spans.map((sentenceSpans, s) => {
    const words = sentences[s]!;
    return sentenceSpans.map((span) => {
      let start = span.start;
      while (span.type === 'PER' && span.end - start >= 2 && TITLE.test(words[start]!)) {
        start += 1;
        if (words[start] === '.' && span.end - start >= 2) start += 1;
      }
      return start === span.start ? span : { ...span, start };
    });
  });
}

/**
 * A one-word name that is the last word of a person's full name elsewhere
 * in the document is that person, whatever else the word could be
 * ("Manuel Belgrano … Belgrano's army", Belgrano also a town): all 204 such
 * names in the wikigold training articles are.
 */
export function surnamesArePeople(
  sentences: readonly (readonly string[])[],
  spans: readonly TokenSpan[][],
): TokenSpan[][] {
  const surnames = personSurnames(sentences, spans);
  return spans.map((sentenceSpans, s) =>
    sentenceSpans.map((span) =>
      span.end - span.start === 1 && span.type !== 'PER' && surnames.has(sentences[s]![span.start]!)
        ? { ...span, type: 'PER' as const }
        : span,
    ),
  );
}

const QUOTE = /^["“”]$/;

/**
 * A nickname in quotes between a person's first and last names is part of
 * the name ("William Herbert " Buckshot " May", "Rubin " Hurricane "
 * Carter": each of the six in the training sets is one gold person): when
 * the tagger has a person on either side, the whole run is that person.
 */
export function quotedNicknames(
  sentences: readonly (readonly string[])[],
  spans: readonly TokenSpan[][],
): TokenSpan[][] {
  return spans.map((sentenceSpans, s) => {
    const words = sentences[s]!;
    const capitalised = (i: number) => isCapitalised(words[i]);
    let result: TokenSpan[] = sentenceSpans.map((span) => ({ ...span }));
    for (let open = 1; open < words.length; open++) {
      if (!QUOTE.test(words[open]!) || !capitalised(open - 1)) continue;
      let close = open + 1;
      while (close < open + 4 && capitalised(close)) close += 1;
      if (close === open + 1 || !QUOTE.test(words[close] ?? '') || !capitalised(close + 1)) continue;
      const left = result.find((span) => span.start <= open - 1 && span.end === open);
      const right = result.find((span) => span.start === close + 1);
      if (left?.type !== 'PER' && right?.type !== 'PER') continue;
      let start = left?.start ?? open - 1;
      while (!left && start > 0 && capitalised(start - 1)) start -= 1;
      let end = right?.end ?? close + 2;
      while (!right && end < words.length && capitalised(end)) end += 1;
      if (result.some((span) => span !== left && span !== right && span.start < end && start < span.end)) continue;
      result = [...result.filter((span) => span !== left && span !== right), { type: 'PER' as const, start, end }].sort(
        (a, b) => a.start - b.start,
      );
      open = end - 1;
    }
    return result;
  });
}
