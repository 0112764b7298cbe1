/**
 * Checks a request before any engine is asked or page fetched: the strategy's
 * options (CSS schema, regex patterns), and whether what it needs exists on
 * this installation (a language model, the embedding model). Problems are
 * 400s naming the field, or 503 UNAVAILABLE naming what is missing.
 */
import type { EnhancedServices } from '../uses.js';
import type { Embedder } from '../../../services/embeddings/types.js';
import { AppError } from '../../../core/errors.js';
import type { LlmClient } from '../../../services/llm/types.js';
import { ADAPTIVE_DEFAULTS, type AdaptiveOptions } from './adaptive.js';
import { COSINE_DEFAULTS, type CosineOptions } from './cosine.js';
import { parseCssSchema, type CssSchema } from '../../../services/page-analysis/css-schema.js';
import { requireLlm } from './llm-steps.js';
import { compilePatterns, type CompiledPattern } from './regex-patterns.js';
import type { EnhancedSearchInput } from './schemas.js';
import { scrollerFrom, type Scroller } from './scroll.js';

export interface PreparedRequest {
  input: EnhancedSearchInput;
  cssSchema?: CssSchema;
  patterns?: CompiledPattern[];
  cosine?: CosineOptions;
  adaptive: AdaptiveOptions;
  llm: LlmClient | null;
  /** Loaded when a step needs it; null when the model could not be loaded (steps fall back to words). */
  embedder: Embedder | null;
  scroller: Scroller | null;
}

/** Options objects given for a strategy or filter that is not selected are mistakes worth naming. */
function checkOptionsMatch(input: EnhancedSearchInput): void {
  const owners: Array<[keyof EnhancedSearchInput, boolean, string]> = [
    ['css_schema', input.extraction_strategy === 'json_css', 'extraction_strategy "json_css"'],
    ['regex_patterns', input.extraction_strategy === 'regex', 'extraction_strategy "regex"'],
    ['custom_patterns', input.extraction_strategy === 'regex', 'extraction_strategy "regex"'],
    ['cosine', input.extraction_strategy === 'cosine', 'extraction_strategy "cosine"'],
    ['llm_instruction', input.extraction_strategy === 'llm', 'extraction_strategy "llm"'],
    ['llm_schema', input.extraction_strategy === 'llm', 'extraction_strategy "llm"'],
    ['pruning', input.content_filter === 'pruning', 'content_filter "pruning"'],
    ['bm25', input.content_filter === 'bm25', 'content_filter "bm25"'],
    ['llm_filter_instruction', input.content_filter === 'llm', 'content_filter "llm"'],
    ['adaptive', input.adaptive_crawling, 'adaptive_crawling true'],
    ['scroll', input.virtual_scrolling, 'virtual_scrolling true'],
  ];
  for (const [field, selected, needs] of owners) {
    if (input[field] !== undefined && !selected)
      throw new AppError('INVALID_INPUT', `${String(field)}: only used with ${needs}`);
  }
}

export async function prepareRequest(services: EnhancedServices, input: EnhancedSearchInput): Promise<PreparedRequest> {
  checkOptionsMatch(input);
  const prepared: PreparedRequest = {
    input,
    adaptive: {
      maxPages: input.adaptive?.max_pages ?? ADAPTIVE_DEFAULTS.maxPages,
      maxDepth: input.adaptive?.max_depth ?? ADAPTIVE_DEFAULTS.maxDepth,
      minGain: input.adaptive?.min_gain ?? ADAPTIVE_DEFAULTS.minGain,
      patience: input.adaptive?.patience ?? ADAPTIVE_DEFAULTS.patience,
    },
    llm: null,
    embedder: null,
    scroller: input.virtual_scrolling ? scrollerFrom(services.scraper) : null,
  };
  if (input.extraction_strategy === 'json_css') {
    if (!input.css_schema)
      throw new AppError('INVALID_INPUT', 'css_schema: required with extraction_strategy "json_css"');
    prepared.cssSchema = parseCssSchema(input.css_schema);
  }
  if (input.extraction_strategy === 'regex')
    prepared.patterns = compilePatterns(input.regex_patterns, input.custom_patterns);
  if (input.extraction_strategy === 'cosine') {
    prepared.cosine = {
      semanticFilter: input.cosine?.semantic_filter ?? input.query,
      wordCountThreshold: input.cosine?.word_count_threshold ?? COSINE_DEFAULTS.wordCountThreshold,
      simThreshold: input.cosine?.sim_threshold ?? COSINE_DEFAULTS.simThreshold,
      topK: input.cosine?.top_k ?? COSINE_DEFAULTS.topK,
      minRelevance: input.cosine?.min_relevance ?? COSINE_DEFAULTS.minRelevance,
    };
  }
  if (input.extraction_strategy === 'llm') prepared.llm = requireLlm(services.llm, 'extraction_strategy');
  if (input.content_filter === 'llm') prepared.llm = requireLlm(services.llm, 'content_filter');
  if (input.extraction_strategy === 'cosine') {
    // Clustering by meaning has no fallback: without the model the strategy is unavailable.
    prepared.embedder = await services.semantic.embedder();
  } else if (input.link_analysis || input.adaptive_crawling) {
    prepared.embedder = await services.semantic.embedder().catch(() => null);
  }
  return prepared;
}
