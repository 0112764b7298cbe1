/**
 * Splitting a claim into the facts it asserts, by rules: clauses joined by
 * "and", "but", "while", ";" … each become a fact when both sides read as
 * statements (a verb cue and content words of their own). The first main
 * clause is the central fact; a leading concessive clause ("Although X, Y")
 * is not. Figures and dates stay with the clause that states them.
 */
import { analyse, type TextAnalysis } from './analysis.js';

export interface Fact {
  text: string;
  /** The fact the claim stands or falls on. */
  central: boolean;
  analysis: TextAnalysis;
}

/** Claims longer than this many facts are cut (the rest folded into the last fact). */
export const MAX_FACTS = 4;
const MIN_CONTENT_TERMS = 2;

const SPLITTERS =
  /\s*(?:;|,?\s+but\s+|,?\s+while\s+|,?\s+whereas\s+|,?\s+although\s+|,?\s+though\s+|,\s+and\s+|\s+and\s+(?=(?:the|a|an|it|they|he|she|we|this|that|these|those|there)\b))\s*/i;
const CONCESSIVE_START = /^(although|though|while|whereas|despite|even though)\b/i;
const VERB_CUE =
  /\b(is|are|was|were|be|been|being|has|have|had|will|would|can|could|should|may|might|must|do|does|did|isn't|aren't|wasn't|weren't|doesn't|don't|didn't|won't|can't|\w{3,}ed|\w{3,}s|grew|rose|fell|became|began|made|took|went|gave|found|led|left|lost|won|saw|said|told|knew|thought|brought|built|kept|held|ran|shrank|sank|spent|stood|wrote|drove|drew|froze|meant|met|paid|sent|sold|spoke|spread|taught|threw|melt|rise|fall|grow|cause|lead|make)\b/i;

/** The claim without wrapping quotes, citation brackets and trailing punctuation. */
export function cleanClaim(claim: string): string {
  return claim
    .replace(/\s+/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/^[\s"'“”‘’]+|[\s"'“”‘’.!?]+$/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

function statementLike(text: string): boolean {
  return VERB_CUE.test(text) && analyse(text).terms.size >= MIN_CONTENT_TERMS;
}

export function decomposeClaim(claim: string): Fact[] {
  const cleaned = cleanClaim(claim);
  // "Although X, Y": the concession is a fact of its own, before the main clause.
  const concession = CONCESSIVE_START.exec(cleaned) && cleaned.indexOf(',') > 0 ? cleaned.indexOf(',') : -1;
  const split = concession > 0 ? [cleaned.slice(0, concession), cleaned.slice(concession + 1)] : [cleaned];
  const pieces = split.flatMap((part) => part.split(SPLITTERS)).map((p) => p.replace(/^[,\s]+|[,\s]+$/g, ''));
  const clauses: string[] = [];
  for (const piece of pieces) {
    if (!piece) continue;
    if (clauses.length > 0 && (!statementLike(piece) || !statementLike(clauses[clauses.length - 1]!))) {
      // Not a statement of its own ("earthquakes and famine"): it stays part of the clause before.
      clauses[clauses.length - 1] = `${clauses[clauses.length - 1]} ${piece}`;
    } else clauses.push(piece);
  }
  while (clauses.length > MAX_FACTS)
    clauses.splice(MAX_FACTS - 1, 2, `${clauses[MAX_FACTS - 1]} ${clauses[MAX_FACTS]}`);
  const texts = clauses.length > 0 ? clauses : [cleaned];
  const centralIndex = texts.length > 1 && CONCESSIVE_START.test(cleaned) ? 1 : 0;
  return texts.map((text, i) => ({ text, central: i === centralIndex, analysis: analyse(text) }));
}
