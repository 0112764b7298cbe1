/**
 * Passage scorers by name: every area that ranks passages (sentences, blocks,
 * links, chunks) against a query asks for a profile here instead of keeping
 * its own formula.
 *
 *   lexical     lexicalRelevance (relevance.ts): query-term coverage, title
 *               above text, phrase bonus; 0..1, absolute
 *   bm25        BM25 (bm25.ts), the passages scored together as the corpus;
 *               unbounded, relative to the corpus
 *   embedding   cosine of centred query and passage vectors, rescaled by the
 *               model's floor (calibration.ts); 0..1, absolute
 *   blended     0.75 × meaning + 0.25 × lexical (scoring.ts), meaning being
 *               the cosine spread across the passages of one text, damped
 *               where the calibrated cosine is low; 0..1, relative
 *   calibrated  the fitted probability that a passage answers the query
 *               (passage-relevance.ts); 0..1, comparable across queries
 *
 * embedding and blended need an embedding model; calibrated uses its
 * lexical-only fit without one.
 */
import { TimeSlicer } from '../../core/time-slice.js';
import { cosine, type Embedder } from '../embeddings/types.js';
import { bm25TermScores } from './bm25.js';
import { calibrated, embedCentred } from './calibration.js';
import { scorePassages } from './passage-relevance.js';
import { lexicalRelevance } from './relevance.js';
import { contentTerms } from './tokens.js';
import { blend, spread } from './scoring.js';

export type ScorerProfile = 'lexical' | 'bm25' | 'embedding' | 'blended' | 'calibrated';

export interface ScorableText {
  text: string;
  /** Title of the page the text comes from; the lexical and calibrated profiles weigh it. */
  title?: string;
}

export interface PassageScorer {
  readonly profile: ScorerProfile;
  /** One score per passage, in their order. */
  score(query: string, passages: readonly ScorableText[], signal?: AbortSignal): Promise<number[]>;
}

/** `embedder` is present for the profiles that need one (passageScorer checks). */
type Score = (
  query: string,
  passages: readonly ScorableText[],
  embedder: Embedder | null,
  signal?: AbortSignal,
) => Promise<number[]>;

/** Lexical scores in time slices: highlights score up to thousands of sentences of user text on the event loop. */
async function lexicalScores(query: string, passages: readonly ScorableText[]): Promise<number[]> {
  const slicer = new TimeSlicer();
  const scores: number[] = [];
  for (const passage of passages) {
    scores.push(lexicalRelevance(query, { title: passage.title ?? '', snippet: passage.text }));
    await slicer.pause();
  }
  return scores;
}

/**
 * BM25 with the texts cut into terms in time slices: enhanced search scores every block of a page, megabytes of text.
 */
async function bm25InSlices(query: string, passages: readonly ScorableText[]): Promise<number[]> {
  const slicer = new TimeSlicer();
  const docs: string[][] = [];
  for (const passage of passages) {
    docs.push(contentTerms(passage.text));
    await slicer.pause();
  }
  return bm25TermScores(query, docs);
}

/** Raw cosines of centred vectors, and the model's floor. */
async function cosines(
  query: string,
  passages: readonly ScorableText[],
  embedder: Embedder,
  signal?: AbortSignal,
): Promise<{ cosines: number[]; floor: number }> {
  const { vectors, floor } = await embedCentred(embedder, [query, ...passages.map((p) => p.text)], signal);
  return { cosines: passages.map((_, i) => cosine(vectors[0]!, vectors[i + 1]!)), floor };
}

const PROFILES: Record<ScorerProfile, Score> = {
  lexical: (query, passages) => lexicalScores(query, passages),
  bm25: (query, passages) => bm25InSlices(query, passages),
  embedding: async (query, passages, embedder, signal) => {
    const found = await cosines(query, passages, embedder!, signal);
    return found.cosines.map((cos) => calibrated(cos, found.floor));
  },
  blended: async (query, passages, embedder, signal) => {
    const found = await cosines(query, passages, embedder!, signal);
    // Meaning is scaled within the text's passages, like documents in scoring.ts; the floor only
    // keeps a text where nothing is related from looking relevant.
    const meaning = spread(found.cosines).map(
      (m, i) => m * Math.min(1, 2 * calibrated(found.cosines[i]!, found.floor)),
    );
    const lexical = await lexicalScores(query, passages);
    return meaning.map((m, i) => blend(m, lexical[i]!));
  },
  calibrated: async (query, passages, embedder, signal) =>
    (await scorePassages(query, [...passages], embedder, signal)).map((r) => r.score),
};

const NEEDS_MODEL: ReadonlySet<ScorerProfile> = new Set(['embedding', 'blended']);

/** The named scorer; embedding and blended need `embedder` (asking without one is a bug, thrown here). */
export function passageScorer(profile: ScorerProfile, embedder: Embedder | null = null): PassageScorer {
  if (NEEDS_MODEL.has(profile) && !embedder) throw new Error(`the ${profile} passage scorer needs an embedding model`);
  const score = PROFILES[profile];
  return {
    profile,
    score: async (query, passages, signal) => (passages.length === 0 ? [] : score(query, passages, embedder, signal)),
  };
}
