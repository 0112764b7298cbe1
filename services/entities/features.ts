/**
 * Features of one token for the tagger: the word, its shape and affixes, a
 * window of two words each side, the previous tag, the gazetteer marks
 * of the token and its neighbours, and what the rest of the document says
 * about the word (seen capitalised mid-sentence, seen in lower case).
 */
import type { Gazetteer, TokenMarks } from './gazetteer.js';
import { isCapitalised } from './tokenize.js';

export interface DocumentStats {
  /** Words seen capitalised at a position other than the start of a sentence. */
  capitalisedMidSentence: Set<string>;
  /** Lower-case forms seen written in lower case. */
  seenLowerCase: Set<string>;
}

export interface SentenceContext {
  words: readonly string[];
  lower: readonly string[];
  shapes: readonly string[];
  marks: readonly TokenMarks[];
  /**
   * The marks of each word written as a name ("london", "#London", "LONDON" → "London"), for the words not written so:
   * social-media text names in lower case, in capitals and in hashtags what the lists hold capitalised.
   */
  folded: readonly (TokenMarks | undefined)[];
  doc: DocumentStats;
  /** Per token, its features that do not depend on the tags before it (filled on first use). */
  fixed: Array<string[] | undefined>;
}

export function wordShape(word: string): string {
  let shape = '';
  let last = '';
  let run = 0;
  for (const char of word) {
    const kind = /\p{Lu}/u.test(char) ? 'X' : /\p{Ll}/u.test(char) ? 'x' : /\p{N}/u.test(char) ? 'd' : char;
    run = kind === last ? run + 1 : 1;
    last = kind;
    if (run <= 2) shape += kind;
  }
  return shape;
}

export function documentStats(sentences: readonly (readonly string[])[]): DocumentStats {
  const capitalisedMidSentence = new Set<string>();
  const seenLowerCase = new Set<string>();
  for (const words of sentences) {
    words.forEach((word, i) => {
      if (i > 0 && isCapitalised(word) && !/^["“'‘(]$/.test(words[i - 1]!)) capitalisedMidSentence.add(word);
      if (/^\p{Ll}/u.test(word)) seenLowerCase.add(word);
    });
  }
  return { capitalisedMidSentence, seenLowerCase };
}

/** "london", "#london", "LONDON" → "London"; null when that is how the word is written, or it has no letter. */
export function asName(word: string): string | null {
  const bare = word.replace(/^[#@]/, '');
  if (!/^\p{L}/u.test(bare)) return null;
  const name = bare.charAt(0).toUpperCase() + bare.slice(1).toLowerCase();
  return name === word ? null : name;
}

export function sentenceContext(words: readonly string[], gazetteer: Gazetteer, doc: DocumentStats): SentenceContext {
  const names = words.map(asName);
  const folded = names.some((name) => name !== null) ? gazetteer.mark(names.map((name, i) => name ?? words[i]!)) : [];
  return {
    words,
    lower: words.map((w) => w.toLowerCase()),
    shapes: words.map(wordShape),
    marks: gazetteer.mark(words),
    folded: names.map((name, i) => (name === null ? undefined : folded[i])),
    doc,
    fixed: [],
  };
}

/** The gazetteer marks of one token as features under `prefix` (the tagger's window, the span typer's ends). */
export function markFeatures(prefix: string, marks: TokenMarks | undefined, out: string[]): void {
  if (!marks) return;
  if (marks.firstName) out.push(`${prefix}fn`);
  if (marks.surname) out.push(`${prefix}sn`);
  if (marks.nameWord) out.push(`${prefix}nw`);
  if (marks.companyWord) out.push(`${prefix}cw`);
  if (marks.place) out.push(`${prefix}pl${marks.place}`);
  if (marks.designator) out.push(`${prefix}des`);
  if (marks.orgKeyword) out.push(`${prefix}okw`);
  if (marks.title) out.push(`${prefix}title`);
  if (marks.cluster) out.push(`${prefix}c=${marks.cluster.fine}`, `${prefix}cc=${marks.cluster.coarse}`);
}

/** The coarse shape: runs collapsed to one ("Xx", "X", "x-Xx", "d"). */
function shortShape(shape: string): string {
  return shape.replace(/(.)\1+/g, '$1');
}

const capitalFlag = (word: string | undefined) =>
  word === undefined ? '_' : /^\p{Lu}/u.test(word) ? 'C' : /^\p{Ll}/u.test(word) ? 'l' : 'o';

/**
 * The features of token i that do not depend on the tag before it (the
 * decoder scores them once per token); `history` is the type given to the
 * same word earlier in the document (a name tagged once is evidence the next
 * time it is seen).
 */
export function emissionFeatures(ctx: SentenceContext, i: number, history?: string): string[] {
  // Computed once per token (training revisits each token every epoch).
  const fixed = (ctx.fixed[i] ??= fixedFeatures(ctx, i));
  return history ? fixed.concat(`hist=${history}`) : fixed;
}

/** What a transition feature pairs with the previous tag: its kind and the token's part ("t1w", "paris"). */
export type TransitionPart = readonly [kind: TransitionKind, value: string];
export type TransitionKind = 't1' | 't1w' | 't1sh' | 't1caps' | 't1c' | 'hist';

/** The token's parts of its transition features, in the order their weights are summed. */
export function transitionParts(ctx: SentenceContext, i: number, history?: string): TransitionPart[] {
  const cluster = ctx.marks[i]?.cluster;
  const parts: TransitionPart[] = [
    ['t1', ''],
    ['t1w', ctx.lower[i]!],
    ['t1sh', ctx.shapes[i]!],
    ['t1caps', `${capitalFlag(ctx.words[i])}${capitalFlag(ctx.words[i + 1])}`],
  ];
  if (cluster) parts.push(['t1c', String(cluster.coarse)]);
  if (history) parts.push(['hist', history]);
  return parts;
}

/** The feature name of a transition part after the tag `prev` ("t1w=B-LOC|paris", "hist|O=PER"). */
export function transitionFeature([kind, value]: TransitionPart, prev: string): string {
  return kind === 't1' ? `t1=${prev}` : kind === 'hist' ? `hist|${prev}=${value}` : `${kind}=${prev}|${value}`;
}

/** The inverse of transitionFeature: the part and the previous tag, or null for any other feature. */
export function parseTransitionFeature(feature: string): { part: TransitionPart; prev: string } | null {
  if (feature.startsWith('t1=')) return { part: ['t1', ''], prev: feature.slice(3) };
  if (feature.startsWith('hist|')) {
    const eq = feature.indexOf('=');
    return { part: ['hist', feature.slice(eq + 1)], prev: feature.slice(5, eq) };
  }
  const eq = feature.indexOf('=');
  const kind = feature.slice(0, eq);
  if (kind !== 't1w' && kind !== 't1sh' && kind !== 't1caps' && kind !== 't1c') return null;
  const bar = feature.indexOf('|', eq);
  return { part: [kind, feature.slice(bar + 1)], prev: feature.slice(eq + 1, bar) };
}

/** The features of token i that pair it with the tag `prev` before it (the decoder's transitions). */
export function transitionFeatures(ctx: SentenceContext, i: number, prev: string, history?: string): string[] {
  return transitionParts(ctx, i, history).map((part) => transitionFeature(part, prev));
}

function fixedFeatures(ctx: SentenceContext, i: number): string[] {
  const word = ctx.words[i]!;
  const lower = ctx.lower[i]!;
  const shape = ctx.shapes[i]!;
  const capital = isCapitalised(word);
  const lowerAt = (k: number) => ctx.lower[k] ?? (k < 0 ? '<s>' : '</s>');
  const shapeAt = (k: number) => ctx.shapes[k] ?? (k < 0 ? '<s>' : '</s>');
  const features = [
    'b',
    `w=${lower}`,
    `W=${word}`,
    `sh=${shape}`,
    `ss=${shortShape(shape)}`,
    `s1=${lower.slice(-1)}`,
    `s2=${lower.slice(-2)}`,
    `s3=${lower.slice(-3)}`,
    `s4=${lower.slice(-4)}`,
    `p1=${word.slice(0, 1)}`,
    `p2=${lower.slice(0, 2)}`,
    `p3=${lower.slice(0, 3)}`,
    `p4=${lower.slice(0, 4)}`,
    `len=${Math.min(word.length, 8)}`,
    `w-1=${lowerAt(i - 1)}`,
    `w+1=${lowerAt(i + 1)}`,
    `w-2=${lowerAt(i - 2)}`,
    `w+2=${lowerAt(i + 2)}`,
    `sh-1=${shapeAt(i - 1)}`,
    `sh+1=${shapeAt(i + 1)}`,
    `sh-2=${shapeAt(i - 2)}`,
    `sh+2=${shapeAt(i + 2)}`,
    `w-1w=${lowerAt(i - 1)}|${lower}`,
    `ww+1=${lower}|${lowerAt(i + 1)}`,
    `w-2w-1=${lowerAt(i - 2)}|${lowerAt(i - 1)}`,
    `w+1w+2=${lowerAt(i + 1)}|${lowerAt(i + 2)}`,
    `w-1sh=${lowerAt(i - 1)}|${shape}`,
    `shw+1=${shape}|${lowerAt(i + 1)}`,
    `sh-1sh=${shapeAt(i - 1)}|${shape}|${shapeAt(i + 1)}`,
    `caps=${capitalFlag(ctx.words[i - 2])}${capitalFlag(ctx.words[i - 1])}${capitalFlag(word)}${capitalFlag(ctx.words[i + 1])}${capitalFlag(ctx.words[i + 2])}`,
  ];
  if (i === 0) features.push(`first|${shape}`, `first|${lower}`);
  const marks = ctx.marks[i];
  markFeatures('g', marks, features);
  markFeatures('g-1', ctx.marks[i - 1], features);
  markFeatures('g+1', ctx.marks[i + 1], features);
  markFeatures('g-2', ctx.marks[i - 2], features);
  markFeatures('g+2', ctx.marks[i + 2], features);
  const folded = ctx.folded[i];
  if (folded) {
    markFeatures('gn', { ...folded, cluster: null }, features);
    markFeatures('gn-1', ctx.folded[i - 1] && { ...ctx.folded[i - 1]!, cluster: null }, features);
    markFeatures('gn+1', ctx.folded[i + 1] && { ...ctx.folded[i + 1]!, cluster: null }, features);
  }
  if (/^[#@]\p{L}/u.test(word)) {
    features.push(`tag=${word[0]}`, `tagw=${lower.slice(1)}`);
    if (folded?.cluster) features.push(`tagc=${folded.cluster.fine}`);
  }
  if (marks?.cluster) features.push(`c|sh=${marks.cluster.fine}|${shortShape(shape)}`);
  else features.push(`oov|sh=${shortShape(shape)}`);
  if (capital) {
    if (marks?.common) features.push(i === 0 ? 'cap-common-first' : 'cap-common');
    if (ctx.doc.capitalisedMidSentence.has(word)) features.push(i === 0 ? 'doc-cap-first' : 'doc-cap');
    if (ctx.doc.seenLowerCase.has(lower)) features.push(i === 0 ? 'doc-lower-first' : 'doc-lower');
    if (marks?.firstName && isCapitalised(ctx.words[i + 1])) features.push('fn+cap');
    if (isCapitalised(ctx.words[i - 1]) && marks?.surname) features.push('cap+sn');
    let run = 0;
    for (let j = i + 1; j < Math.min(ctx.words.length, i + 5) && isCapitalised(ctx.words[j]); j++) {
      run += 1;
      if (ctx.marks[j]?.designator) features.push('chain-des');
      if (ctx.marks[j]?.orgKeyword) features.push('chain-okw');
    }
    features.push(`run+=${run}`);
  }
  return features;
}
