/**
 * What the stance rules read from a fact or a sentence: its content terms
 * (stemmed, weighted), named things, figures and years, negation, direction
 * words, hedges, words that call something false, and contrast markers.
 */
import { isStopWord, stem, tokenize } from '../../../services/ranking/tokens.js';
import {
  CONTRAST_MARKERS,
  DIRECTION,
  FALSITY_MARKERS,
  HEDGES,
  LIGHT_WORDS,
  NEGATED_AUXILIARIES,
  NEGATORS,
} from './lexicon.js';
import { isYear, quantities, type Quantity } from './quantities.js';

export type Direction = keyof typeof DIRECTION;

export interface TextAnalysis {
  text: string;
  /** Every token, stemmed, in order. */
  tokens: string[];
  /** Content terms and their weights (named things and rare-looking words weigh more). */
  terms: Map<string, number>;
  /** Stems of capitalised words and acronyms not at the start of the text. */
  entities: Set<string>;
  quantities: Quantity[];
  years: number[];
  /** Number of negating words. */
  negations: number;
  directions: Set<Direction>;
  hedged: boolean;
  callsFalse: boolean;
  contrast: boolean;
}

const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu;

export function analyse(text: string): TextAnalysis {
  const tokens = tokenize(text);
  const words = text.match(WORD) ?? [];
  const entities = new Set<string>();
  words.forEach((word, i) => {
    const isAcronym = /^[A-Z][A-Z0-9]{1,}$/.test(word);
    const isName = /^[A-Z][a-z]/.test(word) && i > 0;
    if ((isAcronym || isName) && !isStopWord(word.toLowerCase())) for (const t of tokenize(word)) entities.add(t);
  });
  const terms = new Map<string, number>();
  for (const token of tokens) {
    if (
      isStopWord(token) ||
      LIGHT_WORDS.has(token) ||
      NEGATORS.has(token) ||
      NEGATED_AUXILIARIES.has(token) ||
      token === 't' ||
      token.length < 2
    )
      continue;
    if (/\d/.test(token)) continue; // figures are compared as quantities
    const weight = entities.has(token) ? 2 : token.length >= 8 ? 1.5 : 1;
    terms.set(token, Math.max(terms.get(token) ?? 0, weight));
  }
  let negations = 0;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (NEGATORS.has(token)) negations++;
    else if (token === 't' && i > 0 && NEGATED_AUXILIARIES.has(tokens[i - 1]!)) negations++;
  }
  const directions = new Set<Direction>();
  for (const token of tokens)
    for (const [name, set] of Object.entries(DIRECTION)) if (set.has(token)) directions.add(name as Direction);
  const found = quantities(text);
  return {
    text,
    tokens,
    terms,
    entities,
    quantities: found.filter((q) => !isYear(q)),
    years: found.filter(isYear).map((q) => q.low),
    negations,
    directions,
    hedged: tokens.some((t) => HEDGES.has(t)),
    callsFalse: tokens.some((t) => FALSITY_MARKERS.has(t)),
    contrast: tokens.some((t) => CONTRAST_MARKERS.has(t)),
  };
}

/** Weighted share of the fact's content terms that the sentence contains. */
export function termCoverage(fact: TextAnalysis, sentence: TextAnalysis): number {
  let total = 0;
  let found = 0;
  const present = new Set(sentence.tokens);
  for (const [term, weight] of fact.terms) {
    total += weight;
    if (present.has(term)) found += weight;
  }
  return total === 0 ? 0 : found / total;
}

export { stem };
