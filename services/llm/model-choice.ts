/**
 * Which model serves which use: the one place an LLM tier is chosen. Features
 * name what they want a model for; this table picks the tier (fast for short,
 * frequent work on the request path; quality for what a reader reads as
 * written). A tier left out of the configuration borrows the other; null when
 * no model is configured, and the feature takes its extractive path.
 */
import type { LlmTiers } from './registry.js';
import type { LlmClient } from './types.js';

export type LlmTier = 'fast' | 'quality';

const TIER_OF_USE = {
  /** agent search's cited answer to a simple question, or when the caller asked for speed */
  'quick-answer': 'fast',
  /** agent search's cited answer to a complex question, or when the caller asked for quality */
  'considered-answer': 'quality',
  /** sub-questions of a research plan (agent, RAG) and follow-up queries */
  'research-plan': 'fast',
  /** the written research report (agent research) */
  'research-report': 'quality',
  /** one-paragraph summaries of pages (RAG search and corpora, Exa contents) */
  'page-summary': 'fast',
  /** descriptions of images found with the results (agent search) */
  'image-description': 'fast',
  /** a claim's facts and the stance of evidence sentences (verify) */
  'claim-judgement': 'fast',
  /** what a monitor's new pages say (monitor deep_analysis) */
  'monitor-summary': 'quality',
  /** entities and relations of a text (knowledge graph) */
  'entity-extraction': 'fast',
  /** alternative search queries for a query (neural search) */
  'query-expansion': 'fast',
  /** next searches a caller may make (predictive search) */
  'query-prediction': 'fast',
  /** a Firecrawl crawl's prompt turned into crawl options */
  'crawl-options': 'fast',
  /** the llm extraction strategy and content filter (enhanced search and scrape) */
  'page-extraction': 'quality',
} as const satisfies Record<string, LlmTier>;

export type LlmUse = keyof typeof TIER_OF_USE;

/** The model for a use: its tier, else the other one; null when none is configured. */
export function modelFor(tiers: Pick<LlmTiers, 'fast' | 'quality'>, use: LlmUse): LlmClient | null {
  return TIER_OF_USE[use] === 'fast' ? (tiers.fast ?? tiers.quality) : (tiers.quality ?? tiers.fast);
}
