/**
 * What the pages read mention anywhere, and which of a fact's named things
 * and figures they never mention. A page may say a fact's words in other
 * words, but it cannot support a name, a number or a year it never states:
 * such a detail is a part of the fact the pages leave unsupported (most
 * partly supported claims of the WiCE benchmark add one, docs/verify.md).
 */
import type { TextAnalysis } from './analysis.js';
import { agree, sameKind, type Quantity } from './quantities.js';

export interface PageMentions {
  tokens: ReadonlySet<string>;
  quantities: readonly Quantity[];
  years: ReadonlySet<number>;
}

/** What a fact states that no page mentions. */
export interface Unmentioned {
  /** The fact's named things (stems) no page holds. */
  names: string[];
  /** Their share of the fact's named things, 0..1 (0 when it names none). */
  nameShare: number;
  /** The fact's figures and years, as written, that no page states. */
  figures: string[];
}

/** `texts`: every analysed sentence and title of the pages. */
export function pageMentions(texts: Iterable<TextAnalysis>): PageMentions {
  const tokens = new Set<string>();
  const quantities: Quantity[] = [];
  const years = new Set<number>();
  for (const text of texts) {
    for (const token of text.tokens) tokens.add(token);
    quantities.push(...text.quantities);
    for (const year of text.years) years.add(year);
  }
  return { tokens, quantities, years };
}

export function unmentioned(fact: TextAnalysis, mentions: PageMentions): Unmentioned {
  const named = [...fact.entities].filter((name) => fact.terms.has(name));
  const names = named.filter((name) => !mentions.tokens.has(name));
  const figures = [
    ...fact.quantities
      .filter((q) => !mentions.quantities.some((p) => sameKind(q, p) && agree(q, p)))
      .map((q) => q.text.trim()),
    ...fact.years.filter((year) => !mentions.years.has(year)).map(String),
  ];
  return { names, nameShare: named.length === 0 ? 0 : names.length / named.length, figures };
}
