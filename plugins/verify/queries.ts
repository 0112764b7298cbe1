/**
 * The searches a verification runs (docs/verify.md, "quick and thorough"):
 *   quick     the claim, and the central fact when the claim has several: 1–2 searches,
 *             5 results each, up to 6 pages, one round;
 *   thorough  the claim, every fact, and the claim with "fact check": up to 6 searches,
 *             8 results each, up to 12 pages; then a second round for every fact still
 *             without evidence (its key terms: names, figures, content words), up to 4 more pages.
 */
import { stem } from './claims/analysis.js';
import { cleanClaim, decomposeClaim, type Fact } from './claims/facts.js';
import type { Depth } from './claims/check-claim.js';
import { writtenWords } from '../../services/ranking/tokens.js';

export interface SearchPlan {
  queries: string[];
  resultsPerQuery: number;
  maxPages: number;
  secondRound: boolean;
}

const MAX_QUERY_CHARS = 300;

function shorten(text: string): string {
  return text.length <= MAX_QUERY_CHARS ? text : text.slice(0, MAX_QUERY_CHARS).replace(/\s+\S*$/, '');
}

export function planSearches(claim: string, depth: Depth): SearchPlan {
  const cleaned = shorten(cleanClaim(claim));
  const facts = decomposeClaim(claim);
  const unique = (list: string[]) => [...new Set(list.map(shorten).filter(Boolean))];
  if (depth === 'quick') {
    const central = facts.length > 1 ? facts.find((f) => f.central)!.text : null;
    return {
      queries: unique([cleaned, ...(central ? [central] : [])]),
      resultsPerQuery: 5,
      maxPages: 6,
      secondRound: false,
    };
  }
  return {
    queries: unique([cleaned, ...facts.map((f) => f.text), `${cleaned} fact check`]).slice(0, 6),
    resultsPerQuery: 8,
    maxPages: 12,
    secondRound: true,
  };
}

/** The second round's query for a fact without evidence: its names, figures and content words. */
export function keyTermsQuery(fact: Fact): string {
  const figures = [...fact.analysis.quantities.map((q) => q.text.trim()), ...fact.analysis.years.map(String)];
  const words = writtenWords(fact.text).filter(
    (w) => fact.analysis.terms.has(stem(w.toLowerCase())) || /^[A-Z]/.test(w),
  );
  return shorten([...new Set([...words, ...figures])].join(' ') || fact.text);
}
