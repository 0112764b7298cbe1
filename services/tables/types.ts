/** Shapes of the table extraction API (POST /api/v1/enhanced/extract-tables). */

export const TABLE_STRATEGIES = ['auto', 'all', 'data', 'layout_aware'] as const;
export type TableStrategy = (typeof TABLE_STRATEGIES)[number];

export interface ExtractTablesOptions {
  /** Page URL that relative links resolve against; a <base href> in the page takes precedence. */
  baseUrl?: string;
  /** Which tables to return (docs/tables.md); default 'auto'. */
  strategy?: TableStrategy;
}

export interface TableLink {
  /** Grid row counted from the top of the table, header rows included: body row r is row header_rows + r. */
  row: number;
  column: number;
  text: string;
  /** Absolute when a base URL is known, else the href as written. */
  url: string;
}

export interface ExtractedTable {
  /**
   * Position of the <table> among all <table> elements of the page in document order, the same under every strategy.
   */
  index: number;
  caption: string | null;
  /** One name per column, several header rows joined as "Top / Sub"; empty when no header row was found. */
  headers: string[];
  /** Body rows, each exactly column_count cells long. */
  rows: string[][];
  row_count: number;
  column_count: number;
  header_rows: number;
  links: TableLink[];
  is_layout: boolean;
  /** Rows were cut because the output would have outgrown the input (services/tables/output-budget.ts). */
  truncated: boolean;
}

export interface ExtractTablesResult {
  tables: ExtractedTable[];
  strategy: TableStrategy;
  /** Some output was cut (a table's rows, or whole tables after it) to stay within the output budget. */
  truncated: boolean;
}
