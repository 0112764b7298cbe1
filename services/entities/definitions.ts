/**
 * What a text says a name is: the lower-case words after a copula or an
 * apposition ("Atwick is a village in", "Staedtler, a stationery company"),
 * and the type their head noun settles when it names a kind of place,
 * organisation or person. The span typer reads the words as features; the
 * head noun overrides its vote, because the training sets hold too few
 * definitions for it to learn "village" or "company" from them (a handful of
 * each in 9,000 sentences). The same kind nouns mark the name after them
 * ("the band God Street Wine"), and place nouns the last word of a place's
 * name ("Bov Parish").
 */
import type { SentenceContext } from './features.js';
import type { SpanType, TokenSpan } from './spans.js';
import { isCapitalised } from './tokenize.js';

const COPULA = /^(?:is|was|are|were|,|\(|-|–|—)$/;
const ARTICLE = /^(?:a|an|the|one)$/;
const PREDICATE_END = /^(?:in|of|on|at|from|for|by|to|with|that|which|who|and|or)$/;

/**
 * The lower-case words after a copula ("is a village") or an apposition with
 * an article (", a stationery company"), up to the first preposition or
 * punctuation; capitalised words between them ("an American rock band") are
 * skipped.
 */
export function predicateWords(ctx: Pick<SentenceContext, 'words' | 'lower'>, end: number): string[] {
  const lower = ctx.lower;
  if (!COPULA.test(lower[end] ?? '')) return [];
  let k = end + 1;
  const article = ARTICLE.test(lower[k] ?? '');
  if (article) k += 1;
  else if (!/^(?:is|was|are|were)$/.test(lower[end]!)) return [];
  const words: string[] = [];
  for (; k < Math.min(lower.length, end + 7) && words.length < 3; k++) {
    const word = lower[k]!;
    if (PREDICATE_END.test(word) || !/^\p{L}/u.test(word)) break;
    if (/^\p{Ll}/u.test(ctx.words[k]!)) words.push(word);
  }
  return words;
}

/** A span's string, the key its mentions share within a document. */
export const spanText = (ctx: SentenceContext, span: TokenSpan) => ctx.words.slice(span.start, span.end).join(' ');

/** What a document says its names are, read once from every mention's predicate. */
export interface Definitions {
  /** The predicate words of each string: "Atwick is a village" once makes every "Atwick" of the page a village. */
  words: Map<string, string[]>;
  /**
   * The strings whose definitions name one kind by their head nouns, with that type; a string defined as two kinds is
   * left out.
   */
  kinds: Map<string, SpanType>;
}

export function readDefinitions(mentions: ReadonlyArray<{ ctx: SentenceContext; span: TokenSpan }>): Definitions {
  const words = new Map<string, Set<string>>();
  const kinds = new Map<string, Set<SpanType>>();
  for (const { ctx, span } of mentions) {
    const predicate = predicateWords(ctx, span.end);
    if (predicate.length === 0) continue;
    const key = spanText(ctx, span);
    const set = words.get(key) ?? new Set<string>();
    for (const word of predicate) set.add(word);
    words.set(key, set);
    const kind = mentionKind(ctx, span, predicate);
    if (kind) kinds.set(key, (kinds.get(key) ?? new Set()).add(kind));
  }
  return {
    words: new Map([...words].map(([key, set]) => [key, [...set]])),
    kinds: new Map([...kinds].filter(([, types]) => types.size === 1).map(([key, types]) => [key, [...types][0]!])),
  };
}

/**
 * Head nouns that say which kind of name a definition is about; hand-written, kept to nouns that rarely name anything
 * else.
 */
const KINDS: ReadonlyArray<readonly [SpanType, readonly string[]]> = [
  [
    'LOC',
    [
      'village',
      'town',
      'city',
      'hamlet',
      'parish',
      'municipality',
      'commune',
      'county',
      'district',
      'province',
      'suburb',
      'borough',
      'township',
      'settlement',
      'locality',
      'island',
      'river',
      'lake',
      'mountain',
      'valley',
      'peninsula',
      'neighbourhood',
      'neighborhood',
      'country',
      'capital',
      'tributary',
    ],
  ],
  [
    'ORG',
    [
      'school district',
      'company',
      'corporation',
      'firm',
      'manufacturer',
      'retailer',
      'airline',
      'bank',
      'conglomerate',
      'subsidiary',
      'startup',
      'publisher',
      'label',
      'band',
      'duo',
      'trio',
      'quartet',
      'orchestra',
      'club',
      'team',
      'newspaper',
      'magazine',
      'journal',
      'broadcaster',
      'university',
      'college',
      'school',
      'party',
      'organisation',
      'organization',
      'agency',
      'charity',
      'foundation',
      'institute',
      'association',
      'society',
      'federation',
      'regiment',
      'battalion',
      'brigade',
      'squadron',
    ],
  ],
  [
    'PER',
    [
      'politician',
      'footballer',
      'cricketer',
      'player',
      'singer',
      'actor',
      'actress',
      'writer',
      'poet',
      'author',
      'novelist',
      'musician',
      'composer',
      'painter',
      'artist',
      'architect',
      'scientist',
      'physicist',
      'chemist',
      'biologist',
      'mathematician',
      'historian',
      'philosopher',
      'journalist',
      'lawyer',
      'businessman',
      'businesswoman',
      'entrepreneur',
      'inventor',
      'soldier',
      'athlete',
      'cyclist',
      'boxer',
      'wrestler',
      'swimmer',
      'rapper',
      'guitarist',
      'bassist',
      'drummer',
      'pianist',
      'violinist',
      'comedian',
      'photographer',
      'diplomat',
      'activist',
      'explorer',
      'astronaut',
      'bishop',
      'priest',
      'monk',
    ],
  ],
];
const KIND = new Map(KINDS.flatMap(([type, nouns]) => nouns.map((noun) => [noun, type] as const)));

/**
 * Words before a span that show it is not the subject of the copula after it ("born in Danvers, Massachusetts is an
 * American rapper").
 */
const NOT_SUBJECT = /^(?:,|in|at|of|from|near|to|for|with|by|on|and|or)$/;

/** The kind a mention's definition names by its head noun (its last word, or last two: "school district"), or null. */
function mentionKind(
  ctx: Pick<SentenceContext, 'words' | 'lower'>,
  span: TokenSpan,
  words = predicateWords(ctx, span.end),
): SpanType | null {
  if (/^(?:is|was|are|were)$/.test(ctx.lower[span.end] ?? '') && NOT_SUBJECT.test(ctx.lower[span.start - 1] ?? ''))
    return null;
  if (words.length === 0) return null;
  // "Cowley was the team's sole remaining …": a possessive head owns the thing named, it is not the name's kind.
  if (/^['’]s$/.test(ctx.lower[ctx.lower.indexOf(words[words.length - 1]!, span.end) + 1] ?? '')) return null;
  return KIND.get(words.slice(-2).join(' ')) ?? KIND.get(words[words.length - 1]!) ?? null;
}

/**
 * Names introduced by their kind ("the band God Street Wine", "the
 * scientific journal Protein Science", "the village of Atwick"): the
 * capitalised words right after a lower-case kind noun are one name of that
 * kind (50 of 53 such runs in the training articles are exactly a gold name
 * of that type). The run replaces the tagger's spans inside it and takes the
 * kind's type; a tagged span reaching past it ("historian Pierre de Marca")
 * is left as it is, and one holding the kind noun is cut before it ("Polish
 * poet Adam Mickiewicz" → "Polish", "Adam Mickiewicz"). A sentence opening
 * with a name the tagger missed and defining it by a kind ("Bilje is a
 * village") gains that name.
 */
export function namesAfterKinds(
  words: readonly string[],
  spans: readonly TokenSpan[],
  introduced?: Map<string, SpanType>,
): TokenSpan[] {
  const result = spans.map((span) => ({ ...span }));
  for (let i = 0; i < words.length; i++) {
    const kind = /^\p{Ll}/u.test(words[i]!) ? KIND.get(words[i]!) : undefined;
    if (!kind) continue;
    const start = kind === 'LOC' && words[i + 1] === 'of' ? i + 2 : i + 1;
    const end = capitalisedRunEnd(words, start);
    if (end === start) continue;
    const holding = result.find((span) => span.start < i && span.end > i);
    if (holding && holding.end <= end) holding.end = i;
    const overlapping = result.filter((span) => span.start < end && start < span.end);
    if (overlapping.some((span) => span.start < start || span.end > end)) continue;
    for (const span of overlapping) result.splice(result.indexOf(span), 1);
    result.push({ type: kind, start, end });
    introduced?.set(words.slice(start, end).join(' '), kind);
    i = end - 1;
  }
  const opening = capitalisedRunEnd(words, 0);
  if (opening > 0 && !NOT_A_NAME_OPENING.test(words[0]!) && !result.some((span) => span.start < opening)) {
    const kind = mentionKind(
      { words, lower: words.map((word) => word.toLowerCase()) },
      { type: 'MISC', start: 0, end: opening },
    );
    if (kind) result.push({ type: kind, start: 0, end: opening });
  }
  return result.sort((a, b) => a.start - b.start);
}

/**
 * namesAfterKinds over a document, and every other mention of a name a kind
 * noun introduced takes that kind ("the band Gigi … Gigi has released six
 * albums").
 */
export function namesAfterKindsInDocument(
  sentences: readonly (readonly string[])[],
  spans: readonly TokenSpan[][],
): TokenSpan[][] {
  const introduced = new Map<string, SpanType>();
  const named = spans.map((sentenceSpans, s) => namesAfterKinds(sentences[s]!, sentenceSpans, introduced));
  if (introduced.size === 0) return named;
  return named.map((sentenceSpans, s) =>
    sentenceSpans.map((span) => {
      const kind = introduced.get(sentences[s]!.slice(span.start, span.end).join(' '));
      return kind ? { ...span, type: kind } : span;
    }),
  );
}

/**
 * Sentence openings that are no name defined by its kind: pronouns, determiners, articles ("He is a guitarist", "This
 * is a village").
 */
const NOT_A_NAME_OPENING = /^(?:He|She|It|They|We|I|You|This|That|These|Those|There|Here|Each|One|Both|All|The|A|An)$/;

/** One past the last of up to six capitalised words from `start`. */
function capitalisedRunEnd(words: readonly string[], start: number): number {
  let end = start;
  while (end < words.length && end - start < 6 && isCapitalised(words[end])) end += 1;
  return end;
}

/** The last word of a place's name that says it is one ("Bov Parish", "Seminole County", "Peace River"). */
const PLACE_LAST_WORD =
  /^(?:Parish|County|River|Lake|Island|Islands|Mountain|Mountains|Valley|Village|Township|Borough|Province|Peninsula|Bay|Creek|Brook|Pond|Falls|Empire|Road|Avenue|Street|Sea|Ocean|Plateau|Reservoir|Playfield|Canyon|Glacier|Coast)$/;

/**
 * A person or other name ending with a place noun is a place ("Bov Parish"
 * typed a person): 95 of 101 such gold names in the training sets are
 * places, and most of the rest organisations ("Colwyn Bay" the club), which it leaves
 * alone. A place noun the tagger left out after a place, or tagged without
 * the capitalised word before it, joins it ("Seminole County", "Hanved Parish").
 */
export function placesByLastWord(words: readonly string[], spans: readonly TokenSpan[]): TokenSpan[] {
  const result = spans.map((span) => ({ ...span }));
  const covered = (i: number) => result.some((span) => i >= span.start && i < span.end);
  for (let k = 0; k < result.length; k++) {
    const span = result[k]!;
    if (span.type === 'LOC' && PLACE_LAST_WORD.test(words[span.end] ?? '') && !covered(span.end)) span.end += 1;
    else if (
      span.end - span.start === 1 &&
      PLACE_LAST_WORD.test(words[span.start]!) &&
      isCapitalised(words[span.start - 1]) &&
      !/^(?:The|A|An)$/.test(words[span.start - 1]!) &&
      !covered(span.start - 1)
    )
      span.start -= 1;
  }
  return result.map((span) =>
    (span.type === 'PER' || span.type === 'MISC') &&
    span.end - span.start >= 2 &&
    PLACE_LAST_WORD.test(words[span.end - 1]!)
      ? { ...span, type: 'LOC' as const }
      : span,
  );
}
