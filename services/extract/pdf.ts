/**
 * PDF documents as an ExtractionResult: the text of every page (pages
 * separated by blank lines), the title from the PDF's metadata, the page count
 * in `metadata.openGraph["pdf:pages"]`, a word count and the same quality
 * score as HTML pages. Runs in the extraction worker (unpdf bundles a
 * serverless build of pdf.js). Never throws.
 */
import { extractText, getDocumentProxy, getMeta } from 'unpdf';
import { failedExtraction } from './failed-result.js';
import { contentQualityScore } from './quality.js';
import type { ExtractionResult, ExtractOptions, PageMetadata } from './types.js';
import { countWords } from './words.js';

/** pdf.js verbosity "errors only": its warnings go through console.log, and stdout carries the MCP protocol. */
const PDFJS_ERRORS_ONLY = 0;

function metadataOf(info: Record<string, unknown>, pages: number): PageMetadata {
  const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() ? value.trim() : null);
  const keywords =
    text(info.Keywords)
      ?.split(/[,;]/)
      .map((k) => k.trim())
      .filter(Boolean) ?? [];
  return {
    title: text(info.Title),
    description: text(info.Subject),
    author: text(info.Author),
    publishedDate: pdfDate(text(info.CreationDate)),
    keywords,
    siteName: null,
    language: text(info.Language),
    canonicalUrl: null,
    openGraph: { 'pdf:pages': String(pages) },
  };
}

/** PDF dates look like "D:20240131120000Z" or "D:20240131120000+01'00'". */
export function pdfDate(value: string | null): string | null {
  const match = value
    ? /^(?:D:)?(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?(Z|[+-]\d{2}'?\d{2}'?)?/.exec(value)
    : null;
  if (!match) return null;
  const [, year, month = '01', day = '01', hour = '00', minute = '00', second = '00', zone] = match;
  const offset = !zone || zone === 'Z' ? 'Z' : `${zone.slice(0, 3)}:${zone.replace(/'/g, '').slice(3, 5) || '00'}`;
  const date = new Date(`${year}-${month}-${day}T${hour}:${minute}:${second}${offset}`);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** Page text as paragraphs: pdf.js gives lines; blank-line runs and hyphenation at line ends are tidied. */
function pageText(raw: string): string {
  return raw
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

function titleFromUrl(url: string): string {
  const last = url.split(/[?#]/)[0]?.split('/').filter(Boolean).at(-1) ?? '';
  try {
    return decodeURIComponent(last).replace(/\.pdf$/i, '');
  } catch {
    return last;
  }
}

export async function extractPdf(
  bytes: Uint8Array,
  url: string,
  options: ExtractOptions = {},
): Promise<ExtractionResult> {
  const empty = metadataOf({}, 0);
  let pdf;
  try {
    // pdf.js takes ownership of the buffer it is given, so it gets a copy.
    pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: PDFJS_ERRORS_ONLY });
  } catch {
    return failedExtraction(url, titleFromUrl(url), empty, 'extraction_error');
  }
  try {
    const [{ info }, { totalPages, text: pages }] = await Promise.all([
      getMeta(pdf),
      extractText(pdf, { mergePages: false }),
    ]);
    const metadata = metadataOf(info ?? {}, totalPages);
    const title = metadata.title ?? titleFromUrl(url);
    const text = pages.map(pageText).filter(Boolean).join('\n\n');
    const wordCount = countWords(text);
    // A scanned PDF has images and no text layer: there is nothing to read without OCR.
    if (wordCount === 0) return failedExtraction(url, title, metadata, 'empty');
    const chars = text.replace(/\s+/g, ' ').length;
    return {
      url,
      title,
      text,
      markdown: options.markdown === false ? '' : text,
      metadata,
      images: [],
      links: [],
      wordCount,
      contentQualityScore: contentQualityScore({
        success: true,
        mainWords: wordCount,
        mainChars: chars,
        pageChars: chars,
        linkChars: 0,
        paragraphs: text.split('\n\n').length,
        hasTitle: metadata.title !== null,
        hasDescription: metadata.description !== null,
        hasAuthor: metadata.author !== null,
        hasDate: metadata.publishedDate !== null,
      }),
      success: true,
    };
  } catch {
    return failedExtraction(url, titleFromUrl(url), empty, 'extraction_error');
  } finally {
    await pdf.destroy().catch(() => undefined);
  }
}
