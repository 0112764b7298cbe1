/**
 * The Search API's answer as the spec's tables give it ("Search result",
 * "Scraped content", "Search metadata", and the response line of
 * POST /api/v1/search/): shared by the search and enhanced contracts, since
 * enhanced search takes every search parameter and answers in this shape.
 */
import { field, type FieldSpec } from './response-shape.js';

export const searchAnswerFields: FieldSpec[] = [
  field('search_metadata', 'object'),
  field('search_metadata.query', 'string'),
  field('search_metadata.engines_used', 'string[]'),
  field('search_metadata.engines_succeeded', 'string[]'),
  field('search_metadata.engines_failed', 'string[]'),
  field('search_metadata.total_results_found', 'integer'),
  field('search_metadata.results_returned', 'integer'),
  field('search_metadata.search_time_ms', 'integer'),
  field('search_metadata.timestamp', 'string', {
    pattern: /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/,
  }),
  field('search_metadata.relevance_filtered', 'boolean'),
  // What clients of the original service also read.
  field('search_metadata.language', 'string'),
  field('search_metadata.engines', 'string[]'),
  field('results', 'array'),
  field('results[].rank', 'integer'),
  field('results[].title', 'string'),
  field('results[].url', 'string'),
  field('results[].snippet', 'string'),
  field('results[].engine', 'string'),
  field('results[].score', 'number'),
  // "present when content scraping is on"
  field('results[].scraped_content', 'object', { optional: true }),
  field('results[].scraped_content.url', 'string'),
  field('results[].scraped_content.title', 'string'),
  field('results[].scraped_content.text', 'string'),
  field('results[].scraped_content.images', 'array'),
  field('results[].scraped_content.links', 'array'),
  field('results[].scraped_content.word_count', 'integer'),
  field('results[].scraped_content.extraction_success', 'boolean'),
  field('results[].scraped_content.extraction_time_ms', 'integer'),
  field('results[].scraped_content.content_quality_score', 'number'),
  field('processing_time_ms', 'integer'),
  field('cached', 'boolean'),
  field('total_results', 'integer'),
  field('request_id', 'string', { pattern: /^req_[0-9a-f]+$/ }),
];
