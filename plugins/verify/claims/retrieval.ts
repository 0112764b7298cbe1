/**
 * Candidate evidence for each fact: the sentences of the pages read
 * (services/ranking's sentence cut), scored by the fact's content terms they
 * contain (lexical) and by meaning (services/ranking's embedding profile: the
 * calibrated cosine of centred vectors). Only sentences that share something
 * with the fact are embedded, so long pages cost little.
 */
import type { Embedder } from '../../../services/embeddings/types.js';
import { cutPassages } from '../../../services/ranking/passages.js';
import { passageScorer } from '../../../services/ranking/scorers.js';
import { coverTerms } from '../../../services/ranking/term-cover.js';
import { analyse, termCoverage, type TextAnalysis } from './analysis.js';
import type { Fact } from './facts.js';
import { pageMentions, type PageMentions } from './mentions.js';

export interface EvidencePage {
  url: string;
  title: string;
  text: string;
  /** 0..1, weighs the page's evidence (plugins/verify/credibility). */
  credibility: number;
}

export interface Candidate {
  page: EvidencePage;
  /** The sentence exactly as it stands in page.text. */
  sentence: string;
  start: number;
  end: number;
  analysis: TextAnalysis;
  /** Weighted share of the fact's content terms in the sentence. */
  coverage: number;
  /** Calibrated cosine of fact and sentence, 0..1. */
  semantic: number;
  relevance: number;
  /** One of the few sentences that together hold most of the fact's terms (ranking's term cover). */
  inCover?: boolean;
}

export interface RetrievalOptions {
  /** Candidates kept per fact. */
  perFact: number;
  /** Sentences read per page (the first ones). */
  sentencesPerPage: number;
  /** Sentences embedded per fact, the best by coverage. */
  embedPerFact: number;
  minRelevance: number;
  /** Sentences in a fact's cover: the few that together hold most of its terms. */
  coverSize: number;
  signal?: AbortSignal;
}

/** Sentences shorter or longer than this are headings, captions or run-on text, not statements. */
const MIN_SENTENCE_CHARS = 25;
const MAX_SENTENCE_CHARS = 600;
export const SEMANTIC_WEIGHT = 0.45;

export function relevanceOf(coverage: number, semantic: number): number {
  return (1 - SEMANTIC_WEIGHT) * coverage + SEMANTIC_WEIGHT * semantic;
}

interface PageSentence {
  page: EvidencePage;
  text: string;
  start: number;
  end: number;
  analysis: TextAnalysis;
}

export async function pageSentences(pages: EvidencePage[], perPage: number): Promise<PageSentence[]> {
  const out: PageSentence[] = [];
  const seen = new Set<string>();
  for (const page of pages) {
    for (const s of await cutPassages(page.text, { by: 'sentence' }, { limit: perPage })) {
      if (s.text.length < MIN_SENTENCE_CHARS || s.text.length > MAX_SENTENCE_CHARS) continue;
      // The same sentence on two pages (syndication, quotes) is one piece of evidence.
      const key = s.text.toLowerCase().replace(/\s+/g, ' ');
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ page, text: s.text, start: s.start, end: s.end, analysis: analyse(s.text) });
    }
  }
  return out;
}

export interface Retrieved {
  /** Per fact, its candidate sentences, best first, then the rest of its cover. */
  candidates: Candidate[][];
  /** Everything the sentences read and the pages' titles mention. */
  mentions: PageMentions;
  /** Every sentence read of the pages. */
  sentences: TextAnalysis[];
}

export async function retrieveEvidence(
  facts: Fact[],
  pages: EvidencePage[],
  embedder: Embedder | null,
  options: RetrievalOptions,
): Promise<Retrieved> {
  const pool = await pageSentences(pages, options.sentencesPerPage);
  const mentions = pageMentions([...pool.map((s) => s.analysis), ...pages.map((p) => analyse(p.title))]);
  return {
    candidates: await candidatesFrom(facts, pool, embedder, options),
    mentions,
    sentences: pool.map((s) => s.analysis),
  };
}

async function candidatesFrom(
  facts: Fact[],
  pool: PageSentence[],
  embedder: Embedder | null,
  options: RetrievalOptions,
): Promise<Candidate[][]> {
  const shortlists = facts.map((fact) =>
    pool
      .map((s) => ({ s, coverage: termCoverage(fact.analysis, s.analysis) }))
      .filter((x) => x.coverage > 0)
      .sort((a, b) => b.coverage - a.coverage)
      .slice(0, options.embedPerFact),
  );
  let semantic: number[][] = shortlists.map((list) => list.map(() => 0));
  if (embedder && shortlists.some((list) => list.length > 0)) {
    const meaning = passageScorer('embedding', embedder);
    semantic = [];
    for (const [i, list] of shortlists.entries())
      semantic.push(
        await meaning.score(
          facts[i]!.text,
          list.map((x) => x.s),
          options.signal,
        ),
      );
  }
  return shortlists.map((list, i) => {
    const scored = list
      .map(({ s, coverage }, j): Candidate => {
        const sem = semantic[i]![j]!;
        return {
          page: s.page,
          sentence: s.text,
          start: s.start,
          end: s.end,
          analysis: s.analysis,
          coverage,
          semantic: sem,
          relevance: relevanceOf(coverage, sem),
        };
      })
      .filter((c) => c.relevance >= options.minRelevance)
      .sort((a, b) => b.relevance - a.relevance);
    const cover = coverTerms(
      facts[i]!.analysis.terms,
      scored.map((c) => new Set(c.analysis.tokens)),
      options.coverSize,
    ).picked.map((j) => scored[j]!);
    const best = scored.slice(0, options.perFact);
    // The cover's sentences join the best ones: what they add is what no single sentence holds.
    return [...best, ...cover.filter((c) => !best.includes(c))].map((c) =>
      cover.includes(c) ? { ...c, inCover: true } : c,
    );
  });
}
