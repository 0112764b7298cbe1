/**
 * extract(html, url, options): the page's main content as text and markdown,
 * with metadata, images, links, a word count and a quality score. Runs in the
 * extraction worker pool; synchronous and never throws.
 *
 * Only the main text decides whether a page is read: every optional part
 * (metadata and its JSON-LD, title, markdown, images, links, media, the
 * repairs of scripted content) is contained (contained.ts), so a part the
 * page breaks is dropped with a warning and the text still comes back.
 *
 * The HTML is parsed once. Everything that needs the untouched page (metadata,
 * title, the page's visible text) is read first, then the content scorer
 * removes furniture from that same document in place, so no clone of the DOM
 * is made.
 */
import { emptyMetadata, failedExtraction } from './failed-result.js';
import { detectNonContent, readBlockSignals } from './blocked.js';
import { readBlockText } from './block-text.js';
import { PartWarnings } from './contained.js';
import { collectImages, collectLinks } from './content-urls.js';
import { findMainContent } from './main-content.js';
import { escapeMarkdownText, type LinkPolicy } from '../markdown/escape.js';
import { outboundLinkPolicy } from '../markdown/link-policy.js';
import { toMarkdown } from './markdown.js';
import { pageMedia, readMediaSources, type MediaSources } from './page-media.js';
import { authorFromByline, readMetadata } from './metadata.js';
import { MarkupTooDeepError } from './markup-depth.js';
import { baseUrlOf, contentRoot, parseDocument, safeUrl } from './parse-document.js';
import { contentQualityScore } from './quality.js';
import { removeMachineText } from './machine-text.js';
import { revealScriptedContent } from './reveal.js';
import { placeStreamedSegments } from './streamed-segments.js';
import { pickTitle } from './title.js';
import type { ExtractionResult, ExtractOptions } from './types.js';

/** Markdown links follow the outbound policy: nothing it refuses outright (private, loopback, …) is linked. */
function linkPolicyOf(options: ExtractOptions): LinkPolicy {
  return outboundLinkPolicy(options.addressPolicy);
}

function collapsedLength(text: string): number {
  return text.replace(/\s+/g, ' ').trim().length;
}

/**
 * `readParsed`, when given, is called with the parsed document before anything changes it: the worker reads the
 * page's links there (options.pageLinks), so a page is parsed once for its content and its links.
 */
export function extract(
  html: string,
  url: string,
  options: ExtractOptions = {},
  readParsed?: (document: Document) => void,
): ExtractionResult {
  const source = typeof html === 'string' ? html : '';
  // Filled from the parse extraction makes (options.media), so the page is not parsed a second time for its media.
  const media: { sources?: MediaSources } = {};
  let result: ExtractionResult;
  try {
    result = extractOrThrow(source, url, options, readParsed, media);
  } catch (error) {
    // A worker must answer every task; a page that breaks the parser is a failed extraction, not a crash.
    result = failedExtraction(
      url,
      '',
      emptyMetadata(),
      error instanceof MarkupTooDeepError ? 'markup_too_deep' : 'extraction_error',
    );
  }
  // A page the parser refused, or whose media could not be read, still has /favicon.ico.
  if (options.media) result.media = pageMedia(media.sources, url, result.images);
  return result;
}

function extractOrThrow(
  html: string,
  url: string,
  options: ExtractOptions,
  readParsed?: (document: Document) => void,
  media: { sources?: MediaSources } = {},
): ExtractionResult {
  const { includeImages = true, includeLinks = true, markdown: wantMarkdown = true } = options;
  const warnings = new PartWarnings();
  const doc = parseDocument(html);
  readParsed?.(doc);
  warnings.contain('scripted_content', () => placeStreamedSegments(doc), undefined);
  warnings.contain('scripted_content', () => revealScriptedContent(contentRoot(doc)), undefined);
  warnings.contain('scripted_content', () => removeMachineText(contentRoot(doc)), undefined);
  const pageUrl = safeUrl(url);
  const base = warnings.contain('links', () => baseUrlOf(doc, url), pageUrl);
  if (options.media && base) {
    const sources = warnings.contain('media', () => readMediaSources(doc, base.href), null);
    if (sources) media.sources = sources;
  }

  // Read everything that needs the untouched page before the content scorer rewrites it.
  const documentTitle = (doc.querySelector('title')?.textContent ?? '').replace(/\s+/g, ' ').trim();
  const metadata = warnings.contain('metadata', () => readMetadata(doc, pageUrl, warnings), emptyMetadata());
  const title = warnings.contain(
    'title',
    () => pickTitle(doc, metadata.title, metadata.siteName, pageUrl),
    documentTitle,
  );
  const pageText = readBlockText(contentRoot(doc)).text;
  const signals = warnings.contain('block_signals', () => readBlockSignals(html), {
    challengeMarkup: false,
    captchaWidget: false,
    consentMarkup: false,
  });

  const main = findMainContent(doc, title, pageUrl);
  if (!metadata.author) metadata.author = warnings.contain('metadata', () => authorFromByline(main.byline), null);

  const failureReason = detectNonContent({ title: documentTitle, pageText, mainWords: main.visibleWordCount, signals });
  if (failureReason) return failedExtraction(url, title, metadata, failureReason);

  const text = main.blockText.text;
  const mainChars = collapsedLength(text);
  const result: ExtractionResult = {
    url,
    title,
    text,
    markdown: wantMarkdown
      ? warnings.contain(
          'markdown',
          () => toMarkdown(main.element, base, pageUrl, linkPolicyOf(options)),
          escapeMarkdownText(text),
        )
      : '',
    metadata,
    images: includeImages ? warnings.contain('images', () => collectImages(main.element, base), []) : [],
    links: includeLinks ? warnings.contain('links', () => collectLinks(main.element, base, pageUrl), []) : [],
    wordCount: main.wordCount,
    contentQualityScore: contentQualityScore({
      success: true,
      mainWords: main.wordCount,
      mainChars,
      pageChars: Math.max(mainChars, collapsedLength(pageText)),
      linkChars: main.blockText.linkChars,
      paragraphs: text.split('\n\n').length,
      hasTitle: title.length > 0,
      hasDescription: metadata.description !== null,
      hasAuthor: metadata.author !== null,
      hasDate: metadata.publishedDate !== null,
    }),
    success: true,
  };
  if (warnings.list.length > 0) result.warnings = warnings.list;
  return result;
}
