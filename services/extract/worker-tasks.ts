/**
 * The tasks the extraction worker pool runs besides page extraction: table
 * extraction, chunking, link parsing, merging scroll snapshots, entity tagging, search engines' answers, robots.txt,
 * callers' JSON Schemas and diffs of pages' markdown —
 * every parse of user-supplied or fetched HTML and text that could hold the event loop. AppErrors cross the
 * thread boundary as values (structured cloning drops their code).
 */
import { AppError, type ErrorCode } from '../../core/errors.js';
import type { Chunk, ChunkOptions } from '../chunking/types.js';
import type { Extraction } from '../entities/types.js';
import type { SitemapDocument } from '../discover/sitemap-parser.js';
import type { PageAnalysis, PageAnalysisOptions } from '../page-analysis/analyse-page.js';
import type { CompiledPattern, RegexMatch } from './regex-extract.js';
import type { TestPattern } from './regex-test.js';
import type { ExtractTablesOptions, ExtractTablesResult } from '../tables/types.js';
import type { EngineParseOutcome, EngineParseTask } from '../engines/engine-parse-task.js';
import type { PageFields } from './page-content.js';
import type { RobotsFile } from './robots-rules.js';
import type { ContentSelection, SelectedContent } from './selected-content.js';
import type { JsonSchemaCheck, JsonSchemaVerdict } from './json-schema-check.js';
import type { LineDiff, LineDiffTask } from './line-diff.js';

export type ParseTask =
  | { kind: 'tables'; html: string; options: ExtractTablesOptions }
  /** Chunking without embeddings (every strategy but semantic). */
  | { kind: 'chunk'; text: string; options: Omit<ChunkOptions, 'embed'> }
  /** The same for each of many texts in one task (the page index's batches: one thread hop, not one a page). */
  | { kind: 'chunk-each'; texts: string[]; options: Omit<ChunkOptions, 'embed'> }
  /** The href targets of a page's <a> and <area> elements, resolved against its <base href> or URL. */
  | ({ kind: 'links'; url: string } & PageFields)
  /** A sitemap (XML or a text list of URLs), up to 50 MB unpacked. */
  | ({ kind: 'sitemap' } & PageFields)
  /** User-supplied regular expressions over text blocks, under a vm time limit. */
  | { kind: 'regex'; texts: string[]; patterns: CompiledPattern[] }
  /** Which short strings (URLs, host names) each user-supplied pattern matches, under a vm time limit. */
  | { kind: 'regex-test'; texts: string[]; patterns: TestPattern[] }
  /** A fetched page as enhanced search reads it: text blocks, json_css records, links. */
  | { kind: 'page'; html: string; url: string; options: PageAnalysisOptions }
  /** A page's content as includeTags/excludeTags/onlyMainContent select it, as markup and markdown. */
  | { kind: 'selected-content'; html: string; url: string; selection: ContentSelection }
  /** A virtually scrolled page: the final HTML with what scrolled away folded back in from the snapshots. */
  | { kind: 'scroll-merge'; html: string; snapshots: string[] }
  /** Entities and relations of a text by the offline tagger (services/entities). */
  | { kind: 'entities'; text: string }
  /** A fetched robots.txt, reduced to the rules agent obeys (robots-rules.ts). */
  | ({ kind: 'robots'; agent: string } & PageFields)
  /**
   * Whether reduced robots.txt rules, too many to match on the event loop, let us fetch each URL; their text only
   * when the thread lacks set id.
   */
  | { kind: 'robots-check'; id: string; rules?: string; urls: string[] }
  /** A caller's JSON Schema compiled, and a value checked against it, under a time limit (json-schema-check.ts). */
  | ({ kind: 'json-schema' } & JsonSchemaCheck)
  /** A unified line diff of two pages' markdown, bounded in edit size and time (line-diff.ts). */
  | ({ kind: 'line-diff' } & LineDiffTask)
  /** A search engine's answer, by the engine's own parser (services/engines/engine-parse-task.ts). */
  | EngineParseTask;

export interface ChunkTaskResult {
  chunks: Chunk[];
  /** Tokens of the whole text. */
  totalTokens: number;
}

export interface ParseResults {
  tables: ExtractTablesResult;
  chunk: ChunkTaskResult;
  'chunk-each': Chunk[][];
  links: string[];
  sitemap: SitemapDocument | null;
  regex: RegexMatch[];
  'regex-test': boolean[][];
  page: PageAnalysis;
  'selected-content': SelectedContent;
  'scroll-merge': string;
  entities: Extraction;
  engine: EngineParseOutcome;
  robots: RobotsFile;
  'robots-check': boolean[] | null;
  'json-schema': JsonSchemaVerdict;
  /** null: too large to diff within the bounds. */
  'line-diff': LineDiff | null;
}

export type ParseOutcome<K extends ParseTask['kind']> =
  | { value: ParseResults[K] }
  | { failure: { code: ErrorCode; message: string; details?: unknown } };

export function failureOf(error: unknown): { failure: { code: ErrorCode; message: string; details?: unknown } } {
  if (error instanceof AppError)
    return {
      failure: {
        code: error.code,
        message: error.message,
        ...(error.details !== undefined ? { details: error.details } : {}),
      },
    };
  throw error;
}

export function unwrap<K extends ParseTask['kind']>(outcome: ParseOutcome<K>): ParseResults[K] {
  if ('failure' in outcome) {
    const { code, message, details } = outcome.failure;
    throw new AppError(code, message, details !== undefined ? { details } : {});
  }
  return outcome.value;
}
