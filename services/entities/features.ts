/**
 * Features of one token for the tagger: the word, its shape and affixes, a
 * window of two words each side, the two previous tags, the gazetteer marks
 * of the token and its neighbours, and what the rest of the document says
 * about the word (seen capitalised mid-sentence, seen in lower case).
 */
import type { Gazetteer, TokenMarks } from './gazetteer.js';

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
  doc: DocumentStats;
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

const isCapitalised = (word: string | undefined) => word !== undefined && /^\p{Lu}/u.test(word);

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

export function sentenceContext(words: readonly string[], gazetteer: Gazetteer, doc: DocumentStats): SentenceContext {
  return { words, lower: words.map((w) => w.toLowerCase()), shapes: words.map(wordShape), marks: gazetteer.mark(words), doc };
}

function markFeatures(prefix: string, marks: TokenMarks | undefined, out: string[]): void {
  if (!marks) return;
  if (marks.firstName) out.push(`${prefix}fn`);
  if (marks.surname) out.push(`${prefix}sn`);
  if (marks.nameWord) out.push(`${prefix}nw`);
  if (marks.companyWord) out.push(`${prefix}cw`);
  if (marks.place) out.push(`${prefix}pl${marks.place}`);
  if (marks.designator) out.push(`${prefix}des`);
  if (marks.orgKeyword) out.push(`${prefix}okw`);
  if (marks.title) out.push(`${prefix}title`);
}

export function tokenFeatures(ctx: SentenceContext, i: number, prev: string, prev2: string): string[] {
  const word = ctx.words[i]!;
  const lower = ctx.lower[i]!;
  const shape = ctx.shapes[i]!;
  const capital = isCapitalised(word);
  const features = [
    'b',
    `w=${lower}`,
    `sh=${shape}`,
    `s3=${lower.slice(-3)}`,
    `s2=${lower.slice(-2)}`,
    `p3=${lower.slice(0, 3)}`,
    `t1=${prev}`,
    `t2=${prev2}|${prev}`,
    `t1w=${prev}|${lower}`,
    `t1sh=${prev}|${shape}`,
    `w-1=${ctx.lower[i - 1] ?? '<s>'}`,
    `w+1=${ctx.lower[i + 1] ?? '</s>'}`,
    `w-2=${ctx.lower[i - 2] ?? '<s>'}`,
    `w+2=${ctx.lower[i + 2] ?? '</s>'}`,
    `sh-1=${ctx.shapes[i - 1] ?? '<s>'}`,
    `sh+1=${ctx.shapes[i + 1] ?? '</s>'}`,
    `w-1w=${ctx.lower[i - 1] ?? '<s>'}|${lower}`,
    `ww+1=${lower}|${ctx.lower[i + 1] ?? '</s>'}`,
    `sh-1sh=${ctx.shapes[i - 1] ?? '<s>'}|${shape}|${ctx.shapes[i + 1] ?? '</s>'}`,
  ];
  if (i === 0) features.push(`first|${shape}`);
  const marks = ctx.marks[i];
  markFeatures('g', marks, features);
  markFeatures('g-1', ctx.marks[i - 1], features);
  markFeatures('g+1', ctx.marks[i + 1], features);
  if (capital) {
    if (marks?.common) features.push(i === 0 ? 'cap-common-first' : 'cap-common');
    if (ctx.doc.capitalisedMidSentence.has(word)) features.push('doc-cap');
    if (ctx.doc.seenLowerCase.has(lower)) features.push('doc-lower');
    if (marks?.firstName && isCapitalised(ctx.words[i + 1])) features.push('fn+cap');
    if (isCapitalised(ctx.words[i - 1]) && marks?.surname) features.push('cap+sn');
    for (let j = i + 1; j < Math.min(ctx.words.length, i + 5) && isCapitalised(ctx.words[j]); j++) {
      if (ctx.marks[j]?.designator) features.push('chain-des');
      if (ctx.marks[j]?.orgKeyword) features.push('chain-okw');
    }
  }
  return features;
}
