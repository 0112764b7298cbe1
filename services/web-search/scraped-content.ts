/** A scraped page in the Search API's scraped_content shape (search results and enhanced search results). */
import { roundScore } from '../../core/rounding.js';
import type { ScrapedPage } from '../scrape/scraper.js';
import type { SearchInput, SearchResultItem } from './schemas.js';

type ScrapedContent = NonNullable<SearchResultItem['scraped_content']>;

export function scrapedContent(
  page: ScrapedPage,
  input: Pick<SearchInput, 'include_images' | 'include_links' | 'output_format'>,
): ScrapedContent {
  const content: ScrapedContent = {
    url: page.finalUrl || page.url,
    title: page.title,
    text: page.text,
    images: input.include_images ? page.images : [],
    links: input.include_links ? page.links.map((l) => l.url) : [],
    word_count: page.wordCount,
    extraction_success: page.success,
    extraction_time_ms: Math.round(page.extractionTimeMs),
    content_quality_score: roundScore(page.contentQualityScore),
    metadata: {
      description: page.metadata.description,
      author: page.metadata.author,
      published_date: page.metadata.publishedDate,
      keywords: page.metadata.keywords,
    },
  };
  if (input.output_format === 'markdown' && page.success) content.markdown = page.markdown;
  if (!page.success && page.failureReason) content.failure_reason = page.failureReason;
  return content;
}
