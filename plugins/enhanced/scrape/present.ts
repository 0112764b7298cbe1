/** Cuts the answer for one page out of what the reader read, by the request's options; and the markdown rendering. */
import { roundScore } from '../../../core/rounding.js';
import { escapeMarkdownText, markdownImage, markdownLink, type LinkPolicy } from '../../../services/markdown/escape.js';
import type { ScrapedPage } from '../../../services/scrape/scraper.js';
import type { ScrapedPageOut, ScrapeInput, ScrapeOutput } from './schema.js';

export function presentPage(record: ScrapedPage, input: ScrapeInput): ScrapedPageOut {
  const fromCache = record.fromCache ?? false;
  const timing = {
    total_ms: record.extractionTimeMs,
    fetch_ms: record.fetchMs ?? 0,
    extract_ms: record.extractMs ?? 0,
  };
  const out: ScrapedPageOut = {
    url: record.url,
    final_url: record.finalUrl,
    status: record.httpStatus,
    title: record.title,
    word_count: record.wordCount,
    content_quality_score: roundScore(record.contentQualityScore),
    extraction_success: record.success,
    extraction_time_ms: timing.total_ms,
    failure_reason: record.success ? null : (record.failureReason ?? null),
    error_code: record.success ? null : (record.errorCode ?? 'INTERNAL'),
    rendered: record.rendered ?? false,
    from_cache: fromCache,
    cached_at: fromCache ? (record.fetchedAt ?? null) : null,
    timing,
  };
  if (input.extract_text) {
    out.text = record.text;
    if (input.response_format === 'markdown') out.markdown = record.markdown;
  }
  if (input.extract_metadata) {
    const m = record.metadata;
    out.metadata = {
      title: m?.title ?? null,
      description: m?.description ?? null,
      author: m?.author ?? null,
      published_date: m?.publishedDate ?? null,
      keywords: m?.keywords ?? [],
      site_name: m?.siteName ?? null,
      language: m?.language ?? null,
      canonical_url: m?.canonicalUrl ?? null,
      open_graph: m?.openGraph ?? {},
    };
  }
  if (input.extract_images) out.images = record.images;
  if (input.extract_links) {
    out.links = record.links.map((l) => l.url);
    out.link_texts = record.links.map((l) => l.text);
  }
  if (input.include_html) out.html = record.html ?? '';
  if (input.screenshot && record.screenshot) out.screenshot = record.screenshot;
  if (input.pdf && record.pdf) out.pdf = record.pdf;
  return out;
}

/**
 * One markdown document for agents: a section per page, failures listed with
 * their codes. Page text is escaped, page markdown comes from the extractor
 * (escaped the same way), and links and images follow the link policy.
 */
export function renderScrapeMarkdown(
  output: Pick<ScrapeOutput, 'scraped_content' | 'metadata'>,
  policy: LinkPolicy,
): string {
  const { metadata } = output;
  const text = escapeMarkdownText;
  const lines = [`# Scraped ${metadata.successful} of ${metadata.total_urls} URLs`, ''];
  if (metadata.cache_hits > 0) lines.push(`${metadata.cache_hits} from the cache.`, '');
  for (const page of output.scraped_content) {
    lines.push(
      `## ${text(oneLine(page.title || page.url))}`,
      '',
      `Source: ${markdownLink(page.final_url, page.final_url, policy)}`,
    );
    if (!page.extraction_success) {
      lines.push('', `Failed: ${text(`${page.error_code} — ${page.failure_reason}`)}`, '');
      continue;
    }
    if (page.metadata?.description) lines.push('', `> ${text(oneLine(page.metadata.description))}`);
    const body = page.markdown ?? (page.text ? text(page.text) : '');
    if (body) lines.push('', body);
    if (page.links?.length)
      lines.push(
        '',
        '### Links',
        '',
        ...page.links.slice(0, 50).map((url, i) => `- ${markdownLink(page.link_texts?.[i] || url, url, policy)}`),
      );
    const images = (page.images ?? [])
      .slice(0, 20)
      .map((src) => markdownImage('', src, policy))
      .filter(Boolean);
    if (images.length) lines.push('', '### Images', '', ...images.map((image) => `- ${image}`));
    if (page.screenshot) lines.push('', '(screenshot attached in the JSON answer)');
    if (page.pdf) lines.push('', '(PDF attached in the JSON answer)');
    lines.push('');
  }
  return lines.join('\n').trimEnd() + '\n';
}

function oneLine(value: string): string {
  return value.replace(/\s+/g, ' ').trim();
}
