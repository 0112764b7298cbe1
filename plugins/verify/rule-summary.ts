/**
 * The summary of a verdict the offline word-overlap rule gave
 * (claims/offline-verdict.ts): what it read — the share of the claim's words
 * its best line states, and where — and, since the rule cannot say false,
 * where the stance rules found sentences that read against the claim (they
 * are answered as contradicting evidence; with a model configured they decide).
 */
import { hostOf } from '../../services/web-search/hosts.js';
import type { ClaimCheck } from './claims/check-claim.js';

const percent = (share: number) => `${Math.round(share * 100)} %`;

function againstNote(check: ClaimCheck): string {
  const against = check.facts.filter((f) => f.status === 'contradicted' || f.status === 'disputed');
  if (against.length === 0) return '';
  const facts = against.map((f) => `"${f.fact.text}"`).join(', ');
  return (
    ` Sentences read against ${facts} (see contradicting_evidence): the offline rule does not weigh them; ` +
    'configure an LLM or an NLI model for a verdict that does.'
  );
}

/** Null when the overlap rule did not decide this verdict (a contradiction gate or a model did). */
export function ruleSummary(check: ClaimCheck, pagesRead: number): string | null {
  if (check.decidedBy !== 'overlap_rule' || pagesRead === 0) return null;
  const best = check.bestLine;
  const host = best ? (hostOf(best.url) ?? best.url) : '';
  switch (check.verdict) {
    case 'true':
      if (!best) return null;
      return (
        `True (word-overlap rule, offline): one line of ${host} states ${percent(best.score)} of the claim's ` +
        `words: "${best.line}".${againstNote(check)}`
      );
    case 'partially_true':
      if (!best) return null;
      return (
        `Partially true (word-overlap rule, offline): the pages state part of the claim and not the rest; its best ` +
        `line, on ${host}, holds ${percent(best.score)} of its words.${againstNote(check)}`
      );
    case 'unverifiable':
      if (!best || check.facts.every((f) => f.evidence.length === 0))
        return `Unverifiable: none of the ${pagesRead} pages read mentions what the claim says.`;
      return (
        `Unverifiable: no line of the ${pagesRead} pages read states enough of the claim to bear on it (at most ` +
        `${percent(best.score)} of its words).`
      );
    default:
      return null;
  }
}
