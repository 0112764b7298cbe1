/**
 * query_complexity and auto_parameters (docs/agent.md):
 *
 *   complex   a comparison ("vs", "compare", "difference between", "better than"),
 *             several questions or clauses ("?" twice, ";", "and" between two
 *             question words), a why / impact / trade-off question, or 16+ words
 *   moderate  6 to 15 words, or a how / what-are / list question
 *   simple    the rest: a short look-up ("what is X", a name, a term)
 *
 * With model "auto", simple queries are answered by the fast LLM tier and the
 * others by the quality tier. auto_parameters picks the news topic for queries
 * about what is new, finance for market questions, and the advanced depth for
 * complex queries — only where the request left the default.
 */
import type { Topic } from './topics.js';
import type { QUERY_COMPLEXITIES, SearchDepth } from './schemas.js';

export type QueryComplexity = (typeof QUERY_COMPLEXITIES)[number];

const COMPARISON =
  /\b(vs\.?|versus|compared? (to|with)|comparison|difference between|differences between|better than|pros and cons)\b/i;
const REASONING =
  /\b(why|impact of|effects? of|trade-?offs?|implications?|consequences?|should i|how does .+ affect)\b/i;
const MULTI_PART = /;|\?.+\?|\b(and|or) (how|why|what|when|where|which|who)\b/i;
const MODERATE = /\b(how (to|do|does|can|is|are)|what are|list|steps|ways to|examples? of|best)\b/i;
const NEWS =
  /\b(news|latest|today|yesterday|this (week|month)|breaking|current(ly)?|recent(ly)?|announced|just released)\b/i;
const FINANCE =
  /\b(stocks?|shares?|earnings|dividends?|market cap|ipo|nasdaq|nyse|s&p|price target|revenue|quarterly results|inflation|interest rates?|bond yields?)\b/i;

export function queryComplexity(query: string): QueryComplexity {
  const words = query.trim().split(/\s+/).filter(Boolean).length;
  if (COMPARISON.test(query) || REASONING.test(query) || MULTI_PART.test(query) || words >= 16) return 'complex';
  if (words >= 6 || MODERATE.test(query)) return 'moderate';
  return 'simple';
}

export function autoParameters(
  query: string,
  topic: Topic,
  depth: SearchDepth,
): { topic: Topic; search_depth: SearchDepth } {
  let chosenTopic = topic;
  if (topic === 'general') {
    if (FINANCE.test(query)) chosenTopic = 'finance';
    else if (NEWS.test(query)) chosenTopic = 'news';
  }
  const chosenDepth = depth === 'basic' && queryComplexity(query) === 'complex' ? 'advanced' : depth;
  return { topic: chosenTopic, search_depth: chosenDepth };
}
