/**
 * Entity spans over tokens: from BIO tags and back, and the document-level
 * pass that makes the tagger consistent within a text: a name tagged once is
 * tagged everywhere it recurs ("Adam Neumann … Neumann"), and one string
 * gets one type, the one most of its mentions got.
 */
import type { Tag } from './perceptron.js';
import { isCapitalised } from './tokenize.js';

export type SpanType = 'PER' | 'ORG' | 'LOC' | 'MISC';

export interface TokenSpan {
  type: SpanType;
  /** First token. */
  start: number;
  /** One past the last token. */
  end: number;
}

export function tagsToSpans(tags: readonly string[]): TokenSpan[] {
  const spans: TokenSpan[] = [];
  let open: TokenSpan | null = null;
  tags.forEach((tag, i) => {
    const type = tag.slice(2) as SpanType;
    if (tag.startsWith('I-') && open && open.type === type) {
      open.end = i + 1;
      return;
    }
    if (open) spans.push(open);
    open = tag === 'O' ? null : { type, start: i, end: i + 1 };
  });
  if (open) spans.push(open);
  return spans;
}

export function spansToTags(length: number, spans: readonly TokenSpan[]): Tag[] {
  const tags: Tag[] = Array.from({ length }, () => 'O');
  for (const span of spans)
    for (let i = span.start; i < span.end; i++) tags[i] = `${i === span.start ? 'B' : 'I'}-${span.type}` as Tag;
  return tags;
}

/** The last words of the document's people named by two words or more ("Manuel Belgrano" → "Belgrano"). */
export function personSurnames(sentences: readonly (readonly string[])[], spans: readonly TokenSpan[][]): Set<string> {
  const surnames = new Set<string>();
  spans.forEach((sentenceSpans, s) => {
    for (const span of sentenceSpans) {
      const last = sentences[s]![span.end - 1];
      if (span.type === 'PER' && span.end - span.start >= 2 && isCapitalised(last)) surnames.add(last!);
    }
  });
  return surnames;
}

export function propagateWithinDocument(
  sentences: readonly (readonly string[])[],
  spans: readonly TokenSpan[][],
  isCommonWord: (lower: string) => boolean,
): TokenSpan[][] {
  const votes = new Map<string, Map<SpanType, number>>();
  const surnames = personSurnames(sentences, spans);
  const vote = (key: string, type: SpanType) => {
    const byType = votes.get(key) ?? new Map<SpanType, number>();
    byType.set(type, (byType.get(type) ?? 0) + 1);
    votes.set(key, byType);
  };
  spans.forEach((sentenceSpans, s) => {
    for (const span of sentenceSpans) vote(sentences[s]!.slice(span.start, span.end).join(' '), span.type);
  });
  const majority = (key: string): SpanType | null => {
    const byType = votes.get(key);
    if (!byType) return null;
    return [...byType].sort((a, b) => b[1] - a[1])[0]![0];
  };
  return spans.map((sentenceSpans, s) => {
    const words = sentences[s]!;
    const covered = new Array<boolean>(words.length).fill(false);
    const result = sentenceSpans.map((span) => {
      for (let i = span.start; i < span.end; i++) covered[i] = true;
      return { ...span, type: majority(words.slice(span.start, span.end).join(' ')) ?? span.type };
    });
    for (let i = 0; i < words.length; i++) {
      if (covered[i] || !isCapitalised(words[i])) continue;
      let found: TokenSpan | null = null;
      for (let end = Math.min(words.length, i + 6); end > i && !found; end--) {
        if (covered.slice(i, end).some(Boolean)) continue;
        const key = words.slice(i, end).join(' ');
        const type = majority(key);
        if (type && (end - i > 1 || !isCommonWord(key.toLowerCase()) || i > 0)) found = { type, start: i, end };
      }
      if (!found && surnames.has(words[i]!) && !isCapitalised(words[i + 1]))
        found = { type: 'PER', start: i, end: i + 1 };
      if (found) {
        result.push(found);
        for (let j = found.start; j < found.end; j++) covered[j] = true;
        i = found.end - 1;
      }
    }
    return result.sort((a, b) => a.start - b.start);
  });
}

const DOMAIN_NAME = /^\p{Lu}[\p{L}\p{N}-]*\.(?:com|net|org|io|ai|co)$/u;

/**
 * Two organisation rules over the tagger's spans: a capitalised domain-style
 * name ("Amazon.com", "Monday.com") is a company, and a company designator
 * right after a company name ("Salesforce.com, Inc", "Acme Corp.") belongs
 * to it rather than standing alone.
 */
export function applyOrganisationRules(
  words: readonly string[],
  spans: TokenSpan[],
  isDesignator: (word: string) => boolean,
  isOrgKeyword: (word: string) => boolean = () => false,
): TokenSpan[] {
  const result = spans.map((s) => ({ ...s }));
  const covered = (i: number) => result.some((s) => i >= s.start && i < s.end);
  words.forEach((word, i) => {
    if (DOMAIN_NAME.test(word) && !covered(i)) result.push({ type: 'ORG', start: i, end: i + 1 });
  });
  result.sort((a, b) => a.start - b.start);
  for (let k = 0; k < result.length; k++) {
    const span = result[k]!;
    let j = span.end;
    // A name followed by an organisation word the tagger left out is that organisation ("Salt Publishing", "Soleilmoon
    // Recordings").
    if (isOrgKeyword(words[j] ?? '') && !(result[k + 1] && result[k + 1]!.start <= j && result[k + 1]!.end > j + 1)) {
      if (result[k + 1]?.start === j) result.splice(k + 1, 1);
      span.end = j + 1;
      span.type = 'ORG';
      j += 1;
    }
    if (span.type !== 'ORG') continue;
    if (words[j] === ',' && words[j + 1] !== undefined && isDesignator(words[j + 1]!)) j += 1;
    if (words[j] === undefined || !isDesignator(words[j]!)) continue;
    const next = result[k + 1];
    if (next && next.start < j) continue;
    if (next && next.start === j) result.splice(k + 1, 1);
    span.end = j + 1;
  }
  return result;
}

/**
 * A name ending with a company designator is a company, and so is every
 * mention of the name without it ("Eberhard Faber GmbH was founded …
 * Eberhard Faber also produces"): the designator settles what the name
 * alone leaves open.
 */
export function companiesByDesignator(
  sentences: readonly (readonly string[])[],
  spans: readonly TokenSpan[][],
  isDesignator: (word: string) => boolean,
): TokenSpan[][] {
  const companies = new Set<string>();
  spans.forEach((sentenceSpans, s) => {
    for (const span of sentenceSpans) {
      const words = sentences[s]!.slice(span.start, span.end);
      if (words.length < 2 || !isDesignator(words[words.length - 1]!)) continue;
      const name = words.slice(0, words[words.length - 2] === ',' ? -2 : -1);
      if (name.length > 0) companies.add(name.join(' '));
    }
  });
  if (companies.size === 0) return spans.map((sentenceSpans) => [...sentenceSpans]);
  return spans.map((sentenceSpans, s) =>
    sentenceSpans.map((span) => {
      const words = sentences[s]!.slice(span.start, span.end);
      const company = companies.has(words.join(' ')) || (words.length >= 2 && isDesignator(words[words.length - 1]!));
      return company && span.type !== 'ORG' ? { ...span, type: 'ORG' as const } : span;
    }),
  );
}

const COORDINATOR = new Set(['and', 'or', ',', '&']);

/**
 * Splits a span that is a coordination of names ("Microsoft and Google",
 * "Apple, Google and Amazon") into one span per name, when every part is a
 * name on its own: one `isName` accepts (known to the lists, or tagged alone
 * elsewhere in the document). "Procter & Gamble", whose parts are not both
 * names on their own, stays whole.
 */
export function splitCoordinations(
  words: readonly string[],
  spans: readonly TokenSpan[],
  isName: (part: readonly string[]) => boolean,
): TokenSpan[] {
  return spans.flatMap((span) => {
    const parts: TokenSpan[] = [];
    let start = span.start;
    for (let i = span.start; i < span.end; i++) {
      if (!COORDINATOR.has(words[i]!)) continue;
      if (i > start) parts.push({ type: span.type, start, end: i });
      start = i + 1;
    }
    if (parts.length === 0 || start >= span.end) return [span];
    parts.push({ type: span.type, start, end: span.end });
    const names = parts.every(
      (part) => /^\p{Lu}/u.test(words[part.start]!) && isName(words.slice(part.start, part.end)),
    );
    return names ? parts : [span];
  });
}

/**
 * Drops punctuation the tagger took in at either end of a span ("Microsoft ,");
 * a span of punctuation only goes. A handle's or hashtag's mark ("@ Microsoft")
 * stays: it belongs to the name.
 */
export function trimPunctuation(words: readonly string[], spans: readonly TokenSpan[]): TokenSpan[] {
  const isWord = (i: number) => /[\p{L}\p{N}@#]/u.test(words[i]!);
  return spans.flatMap((span) => {
    let { start, end } = span;
    while (start < end && !isWord(start)) start += 1;
    while (end > start && !isWord(end - 1)) end -= 1;
    return end > start ? [{ ...span, start, end }] : [];
  });
}

/**
 * Drops lower-case words the tagger ran on with at the end of a capitalised
 * name ("the Union army", "the B1242 road", "the Liberal caucus"): fewer than
 * one gold name in a hundred ends so in the training sets, far fewer than the
 * tagger's spans did. All-lower-case names (handles, hashtags) stay.
 */
export function trimLowerCaseTail(words: readonly string[], spans: readonly TokenSpan[]): TokenSpan[] {
  return spans.map((span) => {
    let end = span.end;
    while (end - 1 > span.start && /^\p{Ll}+$/u.test(words[end - 1]!)) end -= 1;
    const named = words.slice(span.start, end).some(isCapitalised);
    return named && end < span.end ? { ...span, end } : span;
  });
}

/**
 * A span running across a possessive ("Microsoft 's Teams", "Salesforce 's
 * Dreamforce conference") is an owner and a thing: the owner keeps the type,
 * the rest becomes MISC (a product, event or work by its words).
 */
export function splitPossessives(words: readonly string[], spans: readonly TokenSpan[]): TokenSpan[] {
  return spans.flatMap((span) => {
    for (let i = span.start + 1; i < span.end - 1; i++) {
      if (/^['’]s$/.test(words[i]!))
        return [
          { ...span, end: i },
          { type: 'MISC' as const, start: i + 1, end: span.end },
        ];
    }
    return [span];
  });
}

/** A word in capitals that reads as an acronym: "CSHL", "LSWR", "ADDCs", "PG&E". */
const ACRONYM = /^(?=(?:.*\p{Lu}){2})[\p{Lu}\p{N}&.-]{2,8}s?$/u;

/**
 * An acronym in parentheses right after a name is that name's ("Cold Spring
 * Harbor Laboratory ( CSHL )", "World Series of Poker ( WSOP )"): it takes
 * the name's type, tagged or not (each such acronym in the wikigold training
 * articles is the type of the name before it), and the document-level pass
 * then finds its later mentions.
 */
export function acronymsInParentheses(words: readonly string[], spans: readonly TokenSpan[]): TokenSpan[] {
  const result = spans.map((span) => ({ ...span }));
  for (const name of spans) {
    const i = name.end + 1;
    if (words[name.end] !== '(' || words[i + 1] !== ')' || !ACRONYM.test(words[i] ?? '')) continue;
    const tagged = result.find((span) => span.start <= i && span.end > i);
    if (!tagged) result.push({ type: name.type, start: i, end: i + 1 });
    else if (tagged.start === i && tagged.end === i + 1) tagged.type = name.type;
  }
  return result.sort((a, b) => a.start - b.start);
}
