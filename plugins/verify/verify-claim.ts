/**
 * POST /api/v1/verify/claim: plan the searches, read the pages, weigh each
 * page by its source's credibility, check the claim (plugins/verify/claims), and
 * answer with the evidence — every snippet one sentence of the page at its
 * url — the facts, the nuances and a summary.
 */
import type { VerifyServices } from './uses.js';
import type { CallContext } from '../../core/capability.js';
import { AppError } from '../../core/errors.js';
import type { FactOutcome, JudgedCandidate } from './claims/aggregate.js';
import { checkClaim, type ClaimCheck, type ClaimStep } from './claims/check-claim.js';
import type { EvidencePage } from './claims/retrieval.js';
import type { Embedder } from '../../services/embeddings/types.js';
import { assertKnownEngines } from '../../services/web-search/search-runner.js';
import { hostOf } from '../../services/web-search/hosts.js';
import { ruleSummary } from './rule-summary.js';
import { normalizeUrl } from '../../services/web-search/url-normalize.js';
import { gatherPages, type PageSource, type ReadPage } from './evidence-pages.js';
import { keyTermsQuery, planSearches } from './queries.js';
import type { ClaimAnswer, ClaimInput } from './schemas.js';
import { modelFor } from '../../services/llm/model-choice.js';

/** The steps of one verification, in order, for progress notifications. */
export const STEPS = ['search', 'read', 'decompose', 'retrieve', 'judge', 'aggregate'] as const;
export type Step = (typeof STEPS)[number];
const SECOND_ROUND_PAGES = 4;
/** Time kept for the analysis after reading (embedding, judging). */
const ANALYSIS_RESERVE_MS = 3000;
const MAX_EVIDENCE_PER_LIST = 8;

export interface VerifyDeps {
  services: VerifyServices;
  source: PageSource;
}

export async function verifyClaim(
  deps: VerifyDeps,
  input: ClaimInput,
  ctx: CallContext,
  onStep?: (step: Step, detail: string) => void,
): Promise<ClaimAnswer> {
  const started = performance.now();
  const { services } = deps;
  if (input.engines) assertKnownEngines(services.engines, input.engines);
  const deadline = started + input.timeout * 1000 - ANALYSIS_RESERVE_MS;
  const report = (step: Step, detail: string): void => {
    ctx.progress({ progress: STEPS.indexOf(step) + 1, total: STEPS.length, message: `${step}: ${detail}` });
    onStep?.(step, detail);
  };

  const plan = planSearches(input.claim, input.depth);
  const first = await gatherPages(deps.source, { ...plan, engines: input.engines, deadline }, ctx, report);
  if (ctx.signal.aborted) throw new AppError('CANCELLED', 'the verification was cancelled');
  const embedder = await services.semantic.embedder().catch((error: unknown): Embedder | null => {
    ctx.logger.warn({ err: error }, 'verify: no embedding model; evidence is found by words only');
    return null;
  });
  const llm = modelFor(services.llm, 'claim-judgement');
  const stance = await services.models.stanceModel();
  const queries = [...plan.queries];
  let pages = first.pages;
  let failed = first.failed;
  const enginesFailed = new Set(first.enginesFailed);
  const analyse = (read: ReadPage[], steps: boolean) =>
    checkClaim(
      input.claim,
      read.map((p) => withCredibility(services, p)),
      {
        depth: input.depth,
        embedder,
        llm,
        stance,
        signal: ctx.signal,
        ...(steps ? { onStep: (step: ClaimStep, detail: string) => report(step, detail) } : {}),
      },
    );

  let check = await analyse(pages, !plan.secondRound);
  if (plan.secondRound) {
    const missing = check.facts
      .filter((f) => f.status === 'no_evidence' || f.status === 'partly_supported')
      .map((f) => keyTermsQuery(f.fact));
    if (missing.length > 0 && performance.now() < deadline) {
      const more = await gatherPages(
        deps.source,
        {
          queries: missing,
          engines: input.engines,
          resultsPerQuery: 5,
          maxPages: SECOND_ROUND_PAGES,
          seen: first.seen,
          deadline,
        },
        ctx,
        () => undefined,
      );
      queries.push(...missing);
      pages = [...pages, ...more.pages];
      failed += more.failed;
      for (const engine of more.enginesFailed) enginesFailed.add(engine);
    }
    check = await analyse(pages, true);
  }
  if (ctx.signal.aborted) throw new AppError('CANCELLED', 'the verification was cancelled');
  return shapeAnswer(input, check, pages.length, failed, started, [...new Set(queries)], [...enginesFailed]);
}

function withCredibility(services: VerifyServices, page: ReadPage): EvidencePage {
  let credibility = 0.5;
  try {
    credibility = services.credibility.rate(page.url).credibility_score;
  } catch {
    // a URL without a host name keeps the neutral weight
  }
  return { ...page, credibility };
}

function evidenceItem(outcome: FactOutcome, candidate: JudgedCandidate) {
  return {
    title: candidate.page.title,
    url: candidate.page.url,
    snippet: candidate.sentence,
    stance: candidate.judgement.stance === 'supports' ? ('supporting' as const) : ('contradicting' as const),
    credibility_score: candidate.page.credibility,
    fact: outcome.fact.text,
    strength: candidate.judgement.strength,
  };
}

/** One list of evidence items, strongest first, one item per page and sentence. */
function evidenceList(check: ClaimCheck, stance: 'supports' | 'contradicts') {
  const items = check.facts.flatMap((o) =>
    o.evidence.filter((e) => e.judgement.stance === stance).map((e) => ({ o, e })),
  );
  items.sort((a, b) => b.e.weight * b.e.judgement.strength - a.e.weight * a.e.judgement.strength);
  const seen = new Set<string>();
  const out = [];
  for (const { o, e } of items) {
    const key = `${normalizeUrl(e.page.url)}#${e.start}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(evidenceItem(o, e));
    if (out.length >= MAX_EVIDENCE_PER_LIST) break;
  }
  return out;
}

const STATUS_TEXT: Record<FactOutcome['status'], string> = {
  supported: 'supported',
  partly_supported: 'partly supported: part of it is on the pages',
  contradicted: 'contradicted',
  disputed: 'disputed: sources disagree',
  no_evidence: 'no evidence found',
};

function domainOf(url: string): string {
  return hostOf(url) ?? url;
}

function sourcesOf(outcome: FactOutcome, stance: 'supports' | 'contradicts'): string[] {
  return [...new Set(outcome.evidence.filter((e) => e.judgement.stance === stance).map((e) => domainOf(e.page.url)))];
}

function partly(check: ClaimCheck): string {
  const n = check.facts.filter((f) => f.status === 'partly_supported').length;
  return n === 0 ? '' : `, ${n} in part`;
}

function summarise(check: ClaimCheck, pagesRead: number): string {
  const byRule = ruleSummary(check, pagesRead);
  if (byRule) return byRule;
  const central = check.facts.find((f) => f.fact.central) ?? check.facts[0]!;
  const supported = check.facts.filter((f) => f.status === 'supported').length;
  const n = check.facts.length;
  const facts = n === 1 ? 'the claim' : `${supported} of ${n} facts`;
  switch (check.verdict) {
    case 'true':
      return `True: ${n === 1 ? 'the claim is' : `all ${n} facts are`} supported by ${sourcesOf(central, 'supports').join(', ')}, and no source read contradicts it.`;
    case 'false':
      return `False: "${central.fact.text}" is contradicted by ${sourcesOf(central, 'contradicts').join(', ')}${central.support > 0 ? ', which outweigh the sources that support it' : ''}.`;
    case 'partially_true':
      if (n === 1)
        return `Partially true: the ${pagesRead} pages read state part of the claim and not the rest, and nothing contradicts it.`;
      return `Partially true: ${facts} supported${partly(check)}; the rest is not stated in the ${pagesRead} pages read, and nothing contradicts the claim.`;
    case 'misleading': {
      const contradicted = check.facts.find((f) => f.status === 'contradicted');
      if (contradicted)
        return `Misleading: "${central.fact.text}" is supported, but "${contradicted.fact.text}" is contradicted by ${sourcesOf(contradicted, 'contradicts').join(', ')}.`;
      return (
        'Misleading: the facts stated are supported, but the evidence qualifies them in a way the claim leaves ' +
        'out (see nuances).'
      );
    }
    default:
      if (pagesRead === 0) return 'Unverifiable: no page could be read for this claim.';
      if (check.facts.every((f) => f.evidence.length === 0))
        return `Unverifiable: none of the ${pagesRead} pages read mentions what the claim says.`;
      if (check.facts.some((f) => f.status === 'disputed'))
        return 'Unverifiable: the sources read disagree and neither side clearly outweighs the other.';
      return `Unverifiable: the ${pagesRead} pages read discuss the claim's subject but neither confirm nor contradict it.`;
  }
}

function nuancesOf(check: ClaimCheck): string {
  const notes: string[] = [];
  for (const o of check.facts) {
    if (o.qualifier)
      notes.push(`"${o.fact.text}" is qualified by ${domainOf(o.qualifier.page.url)}: "${o.qualifier.sentence}"`);
    if (o.status === 'disputed')
      notes.push(
        `Sources disagree on "${o.fact.text}": ${sourcesOf(o, 'supports').join(', ')} support it, ${sourcesOf(o, 'contradicts').join(', ')} contradict it.`,
      );
    else if (o.status === 'supported' && o.contradiction > 0)
      notes.push(`"${o.fact.text}" is supported, though ${sourcesOf(o, 'contradicts').join(', ')} says otherwise.`);
    else if (o.status === 'contradicted' && o.support > 0)
      notes.push(`"${o.fact.text}" is contradicted, though ${sourcesOf(o, 'supports').join(', ')} supports it.`);
    const hedged = o.evidence.filter(
      (e) => e.judgement.stance !== 'unrelated' && e.judgement.reasons.includes('the evidence is hedged'),
    );
    if (hedged.length > 0 && o.status !== 'no_evidence')
      notes.push(`Some evidence on "${o.fact.text}" is hedged ("may", "suggests"…) and counts for less.`);
    const weak = o.evidence.filter((e) => e.judgement.stance !== 'unrelated' && e.page.credibility < 0.4);
    if (weak.length > 0)
      notes.push(
        `Evidence from low-credibility sources (${[...new Set(weak.map((e) => domainOf(e.page.url)))].join(', ')}) counts for less.`,
      );
  }
  return [...new Set(notes)].join(' ');
}

function shapeAnswer(
  input: ClaimInput,
  check: ClaimCheck,
  pagesRead: number,
  _failed: number,
  started: number,
  queries: string[],
  enginesFailed: string[],
): ClaimAnswer {
  return {
    claim: input.claim,
    verdict: check.verdict,
    confidence: check.confidence,
    summary: summarise(check, pagesRead),
    supporting_evidence: input.include_sources ? evidenceList(check, 'supports') : [],
    contradicting_evidence: input.include_sources ? evidenceList(check, 'contradicts') : [],
    key_facts: check.facts.map((o) => `${o.fact.text} — ${STATUS_TEXT[o.status]}`),
    nuances: nuancesOf(check),
    sources_checked: pagesRead,
    verification_time_ms: Math.round(performance.now() - started),
    model_used: check.judgedBy,
    facts: check.facts.map((o) => ({
      fact: o.fact.text,
      central: o.fact.central,
      status: o.status,
      support: o.support,
      contradiction: o.contradiction,
    })),
    queries,
    engines_failed: enginesFailed,
  };
}
