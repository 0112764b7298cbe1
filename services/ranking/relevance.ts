/**
 * Lexical relevance of a result to the query, in 0..1 (see SCORING.md).
 *
 *   term strength = 1 if the term is in the title, else 0.6 if in the snippet or text, else 0
 *   coverage      = Σ term strength / number of distinct query terms
 *   score         = min(1, coverage + 0.2 if the whole query appears as a phrase)
 *
 * A result with no query term scores 0; one matching one of three terms only
 * in its snippet scores 0.2. So the default threshold 0.15 drops results that
 * share nothing with the query and keeps any real match. Presence, not
 * frequency, is counted: adding an occurrence never lowers the score, and
 * long pages gain nothing from repeating a word.
 */
import { isStopWord, tokenize } from './tokens.js';

const TITLE_STRENGTH = 1;
const BODY_STRENGTH = 0.6;
const PHRASE_BONUS = 0.2;

function queryTerms(tokens: string[]): string[] {
  const content = tokens.filter((t) => !isStopWord(t));
  // A query of stop words only ("the who") still has to match something.
  return [...new Set(content.length > 0 ? content : tokens)];
}

function containsSequence(haystack: string[], needle: string[]): boolean {
  outer: for (let start = 0; start + needle.length <= haystack.length; start++) {
    for (let i = 0; i < needle.length; i++) if (haystack[start + i] !== needle[i]) continue outer;
    return true;
  }
  return false;
}

export interface RelevanceDoc {
  title: string;
  snippet: string;
  text?: string;
}

export function lexicalRelevance(query: string, doc: RelevanceDoc): number {
  const queryTokens = tokenize(query);
  const terms = queryTerms(queryTokens);
  if (terms.length === 0) return 1;

  const titleTokens = tokenize(doc.title);
  const bodyTokens = tokenize(`${doc.snippet}\n${doc.text ?? ''}`);
  const inTitle = new Set(titleTokens);
  const inBody = new Set(bodyTokens);

  let strength = 0;
  for (const term of terms) strength += inTitle.has(term) ? TITLE_STRENGTH : inBody.has(term) ? BODY_STRENGTH : 0;
  const coverage = strength / terms.length;

  // A one-word query has no phrase to find; its coverage already says it all.
  const phrase =
    queryTokens.length > 1 && (containsSequence(titleTokens, queryTokens) || containsSequence(bodyTokens, queryTokens));
  return Math.min(1, coverage + (phrase ? PHRASE_BONUS : 0));
}

export function filterByRelevance<T>(
  items: T[],
  query: string,
  minScore: number,
  get: (item: T) => RelevanceDoc,
): { kept: T[]; dropped: number; scores: number[] } {
  const scores = items.map((item) => lexicalRelevance(query, get(item)));
  const kept = items.filter((_, i) => scores[i]! >= minScore);
  return { kept, dropped: items.length - kept.length, scores };
}
