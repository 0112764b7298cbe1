/**
 * Extraction worker for the tinypool pool (services/extract/extraction-pool.ts).
 * Tinypool calls the default export with each task; it runs as built
 * JavaScript (dist/workers/extract.worker.js). HTML is extracted
 * synchronously, a fetched page's bytes decoded here first; a PDF
 * (options.contentType "application/pdf", its bytes) is read with pdf.js,
 * which is asynchronous. Tasks with a
 * `kind` (services/extract/worker-tasks.ts) parse tables, chunk text, read
 * links, tag entities, read robots.txt, parse search engines' answers, check values against callers' JSON Schemas or
 * diff pages' markdown, so that no parse of untrusted input runs on
 * the main thread.
 */
import { AppError } from '../core/errors.js';
import { chunkText } from '../services/chunking/chunk-text.js';
import { chunkEach } from '../services/chunking/lead.js';
import { countTokens } from '../services/chunking/tokenizer.js';
import { analyzeText } from '../services/entities/analyze.js';
import { EntityRecognizer } from '../services/entities/recognizer.js';
import { linksOf, linksOfDocument } from '../services/discover/page-links.js';
import { parseSitemap } from '../services/discover/sitemap-parser.js';
import { parseEngineAnswer } from '../services/engines/engine-parse-task.js';
import { extract } from '../services/extract/extract.js';
import { pageMedia } from '../services/extract/page-media.js';
import { extractPdf } from '../services/extract/pdf.js';
import { checkJsonSchema } from '../services/extract/json-schema-check.js';
import { lineDiff } from '../services/extract/line-diff.js';
import { regexExtract } from '../services/extract/regex-extract.js';
import { regexTest } from '../services/extract/regex-test.js';
import { reduceRobots, robotsAllowAll } from '../services/extract/robots-rules.js';
import { mergeScrollSnapshots } from '../services/extract/scroll-merge.js';
import type { ExtractionResult, ExtractOptions, ExtractTask } from '../services/extract/types.js';
import { markupOf } from '../services/extract/page-content.js';
import { selectedContent } from '../services/extract/selected-content.js';
import { failureOf, type ParseOutcome, type ParseTask } from '../services/extract/worker-tasks.js';
import { analysePage } from '../services/page-analysis/analyse-page.js';
import { extractTables } from '../services/tables/extract-tables.js';

/** A page extraction task (services/extract/types.ts); fetched bytes are decoded here. */
export type ExtractWorkerTask = ExtractTask & { kind?: undefined };

/** HTML tasks answer synchronously (callers in-process rely on it); PDF tasks answer with a promise. */
export default function run(
  task: ExtractWorkerTask & { options?: ExtractOptions & { contentType?: 'text/html' } },
): ExtractionResult;
export default function run(task: ExtractWorkerTask): ExtractionResult | Promise<ExtractionResult>;
export default function run(task: ParseTask): Promise<ParseOutcome<ParseTask['kind']>>;
export default function run(
  task: ExtractWorkerTask | ParseTask,
): ExtractionResult | Promise<ExtractionResult> | Promise<ParseOutcome<ParseTask['kind']>> {
  if (task.kind !== undefined) return runParseTask(task);
  if (task.options?.contentType === 'application/pdf') {
    // A PDF is read from its bytes; there is no text form of one.
    if (!('bytes' in task))
      return Promise.reject(
        new AppError('INVALID_INPUT', 'a PDF is extracted from its bytes, not from text'),
      ) as Promise<ExtractionResult>;
    return readPdf(task.bytes, task.url, task.options);
  }
  const markup = markupOf(task);
  if (!task.options?.pageLinks) {
    const result = extract(markup, task.url, task.options);
    return task.options?.keepMarkup ? { ...result, html: markup } : result;
  }
  // The page's links come from the parse extraction makes: a crawl's page is parsed once, not twice.
  let pageLinks: string[] | undefined;
  const result = extract(markup, task.url, task.options, (document) => {
    pageLinks = linksOfDocument(document, task.url).map((link) => link.href);
  });
  return {
    ...result,
    ...(task.options.keepMarkup ? { html: markup } : {}),
    ...(pageLinks ? { pageLinks } : {}),
  };
}

/** The tagger's model, loaded by a thread on its first entities task. */
let recognizer: EntityRecognizer | null = null;

async function readPdf(bytes: Uint8Array, url: string, options: ExtractOptions): Promise<ExtractionResult> {
  const result = await extractPdf(bytes, url, options);
  // A PDF has no images to describe and no icon link: its media is the site's /favicon.ico.
  return options.media ? { ...result, media: pageMedia(undefined, url, result.images) } : result;
}

async function runParseTask(task: ParseTask): Promise<ParseOutcome<ParseTask['kind']>> {
  try {
    switch (task.kind) {
      case 'tables':
        return { value: extractTables(task.html, task.options) };
      case 'chunk':
        return { value: { chunks: await chunkText(task.text, task.options), totalTokens: countTokens(task.text) } };
      case 'chunk-each':
        return { value: await chunkEach(task.texts, task.options) };
      case 'links':
        return { value: linksOf(markupOf(task), task.url).map((url) => url.href) };
      case 'sitemap':
        return { value: parseSitemap(markupOf(task)) };
      case 'regex':
        return { value: regexExtract(task.texts, task.patterns) };
      case 'regex-test':
        return { value: regexTest(task.texts, task.patterns) };
      case 'page':
        return { value: analysePage(task.html, task.url, task.options) };
      case 'selected-content':
        return { value: selectedContent(task.html, task.url, task.selection) };
      case 'scroll-merge':
        return { value: mergeScrollSnapshots(task.html, task.snapshots) };
      case 'entities':
        recognizer ??= EntityRecognizer.load();
        return { value: analyzeText(recognizer, task.text) };
      case 'engine':
        return { value: await parseEngineAnswer(task) };
      case 'robots':
        return { value: reduceRobots(markupOf(task), task.agent) };
      case 'robots-check':
        return { value: robotsAllowAll(task.id, task.rules, task.urls) };
      case 'json-schema': {
        const { kind: _kind, ...check } = task;
        return { value: checkJsonSchema(check) };
      }
      case 'line-diff':
        return { value: lineDiff(task) };
    }
  } catch (error) {
    return failureOf(error);
  }
}
