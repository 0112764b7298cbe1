/** POST /api/v1/enhanced/extract-tables: every table of an HTML document as headers and rows (core/tables). */
import type { EnhancedServices } from './uses.js';
import { z } from 'zod';
import { defineCapability } from '../../core/capability.js';
import { AppError, isAppError } from '../../core/errors.js';
import { MAX_MARKUP_DEPTH } from '../../services/extract/types.js';
import { escapeMarkdownText } from '../../services/markdown/escape.js';
import { renderMarkdownTable } from '../../services/markdown/table.js';
import { TABLE_STRATEGIES } from '../../services/tables/types.js';

/** Longest html_content read (about the default HTTP body limit). */
export const MAX_HTML_CONTENT_CHARS = 1_048_576;

export const tablesInputSchema = z.strictObject({
  html_content: z
    .string()
    .min(1, 'html_content must not be empty')
    .max(MAX_HTML_CONTENT_CHARS)
    .describe(`The HTML document or fragment; nesting deeper than ${MAX_MARKUP_DEPTH} elements is refused`),
  base_url: z
    .url({ protocol: /^https?$/, error: 'base_url must be an absolute http(s) URL' })
    .max(2048)
    .optional(),
  strategy: z.enum(TABLE_STRATEGIES).default('auto'),
});

const tableSchema = z.object({
  index: z.int(),
  caption: z.string().nullable(),
  headers: z.array(z.string()),
  rows: z.array(z.array(z.string())),
  row_count: z.int(),
  column_count: z.int(),
  header_rows: z.int(),
  links: z.array(z.object({ row: z.int(), column: z.int(), text: z.string(), url: z.string() })),
  is_layout: z.boolean(),
  truncated: z.boolean().describe('Rows were cut to keep the output within 4× the size of html_content'),
});

export const tablesOutputSchema = z.object({
  tables: z.array(tableSchema),
  total_tables: z.int(),
  strategy: z.enum(TABLE_STRATEGIES),
  truncated: z
    .boolean()
    .describe(
      'Some output was cut (rows of a table, or the tables after it): spans may not expand the input more ' +
        'than the output budget allows',
    ),
});

/** Tables without header cells get "Column n" headers: a GFM table needs a header row. */
function markdownTable(table: z.infer<typeof tableSchema>): string {
  const headers =
    table.headers.length > 0 ? table.headers : Array.from({ length: table.column_count }, (_, i) => `Column ${i + 1}`);
  return renderMarkdownTable(headers, table.rows);
}

export function extractTablesCapability(services: EnhancedServices) {
  return defineCapability({
    id: 'enhanced.extract_tables',
    title: 'Extract tables from HTML',
    description:
      'Every table of an HTML document as {index, caption, headers, rows} with cells as strings: header rows ' +
      'detected, colspan/rowspan expanded, links resolved against base_url. Strategies: auto (data tables; ' +
      'layout tables dropped), all (every table), data (as auto, at least 2 rows and 2 columns), ' +
      'layout_aware (as auto plus layout tables that hold text, flagged is_layout).',
    input: tablesInputSchema,
    output: tablesOutputSchema,
    http: { method: 'POST', path: '/api/v1/enhanced/extract-tables' },
    mcpTool: 'enhanced_extract_tables',
    readOnly: true,
    toMarkdown: (out) =>
      (out.tables
        .map(
          (t) => `## Table ${t.index}${t.caption ? `: ${escapeMarkdownText(t.caption)}` : ''}\n\n${markdownTable(t)}`,
        )
        .join('\n\n') || 'No tables found.') +
      (out.truncated ? '\n\n(Output truncated: the tables expand to more than the output budget allows.)' : ''),
    async handler(input, ctx) {
      // Parsed in the worker pool, under its deadline: a hostile document costs a thread, never the event loop.
      const result = await services.parsing
        .tables(
          input.html_content,
          { strategy: input.strategy, ...(input.base_url ? { baseUrl: input.base_url } : {}) },
          ctx.signal,
        )
        .catch((error: unknown) => {
          if (isAppError(error) && error.code === 'INVALID_INPUT') {
            throw new AppError('INVALID_INPUT', `html_content: ${error.message}`, {
              details: { field: 'html_content', ...(error.details as object) },
            });
          }
          throw error;
        });
      return {
        tables: result.tables,
        total_tables: result.tables.length,
        strategy: result.strategy,
        truncated: result.truncated,
      };
    },
  });
}
