/**
 * npm run bench:tables — table extraction on WikiTableQuestions pages: each
 * page names one table (tableIndex, counted among its class="wikitable"
 * tables, as the dataset was built) and its cells. The page is extracted with
 * the 'auto' strategy; the table is "found" when auto kept that <table>, and
 * row accuracy is the share of reference rows (header included) found cell
 * for cell, after whitespace normalisation, among the extracted rows.
 *
 * Dataset: ../shared/fixtures/datasets/tables/wikitablequestions beside the
 * package root (or TABLES_DATASET_DIR). Exits 0 with a message when absent.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseHTML } from 'linkedom';
import { PACKAGE_ROOT } from '../core/paths.js';
import { extractTables } from '../services/tables/extract-tables.js';
import { parseWtqTsv, rowsWithHeader, scoreRows } from '../services/tables/row-accuracy.js';

const DATASET_DIR = resolve(
  process.env.TABLES_DATASET_DIR ??
    join(PACKAGE_ROOT, '..', 'shared', 'fixtures', 'datasets', 'tables', 'wikitablequestions'),
);

interface PageCase {
  id: string;
  html: string;
  url: string;
  wikitableIndex: number;
  expected: string[][];
}

function readCases(): PageCase[] {
  return readdirSync(join(DATASET_DIR, 'pages'))
    .filter((name) => name.endsWith('.json'))
    .map((name) => name.slice(0, -'.json'.length))
    .filter((id) => existsSync(join(DATASET_DIR, 'tables', `${id}.tsv`)))
    .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))
    .map((id) => {
      const meta = JSON.parse(readFileSync(join(DATASET_DIR, 'pages', `${id}.json`), 'utf8')) as {
        url: string;
        tableIndex: number;
      };
      return {
        id,
        html: readFileSync(join(DATASET_DIR, 'pages', `${id}.html`), 'utf8'),
        url: meta.url,
        wikitableIndex: meta.tableIndex,
        expected: parseWtqTsv(readFileSync(join(DATASET_DIR, 'tables', `${id}.tsv`), 'utf8')),
      };
    });
}

/** Document-order position (among all <table>s, as ExtractedTable.index counts) of the dataset's table. */
function targetTableIndex(html: string, wikitableIndex: number): number {
  const { document } = parseHTML(html);
  const tables = Array.from(document.querySelectorAll('table'));
  const target = tables.filter((table) => /(?:^|\s)wikitable(?:\s|$)/.test(table.getAttribute('class') ?? ''))[
    wikitableIndex
  ];
  return target ? tables.indexOf(target) : -1;
}

function main(): void {
  if (!existsSync(join(DATASET_DIR, 'pages'))) {
    console.log(
      `WikiTableQuestions dataset not found at ${DATASET_DIR}; nothing to benchmark (set TABLES_DATASET_DIR to point at it).`,
    );
    return;
  }
  const cases = readCases();
  console.log(`WikiTableQuestions: ${cases.length} pages with a reference table, strategy 'auto'\n`);
  console.log(['page', 'found', 'rows ok', 'accuracy', 'shape', 'auto#', 'ms'].join('\t'));

  let expectedRows = 0;
  let foundRows = 0;
  let tablesFound = 0;
  let sameAsAutoOrder = 0;
  let extractionMs = 0;
  const pageAccuracies: number[] = [];
  for (const page of cases) {
    const targetIndex = targetTableIndex(page.html, page.wikitableIndex);
    const started = performance.now();
    const { tables } = extractTables(page.html, { baseUrl: page.url, strategy: 'auto' });
    const elapsed = performance.now() - started;
    extractionMs += elapsed;

    const position = tables.findIndex((table) => table.index === targetIndex);
    const table = tables[position];
    const score = table
      ? scoreRows(page.expected, rowsWithHeader(table))
      : { expected: page.expected.length, found: 0 };
    if (table) tablesFound++;
    if (position === page.wikitableIndex) sameAsAutoOrder++;
    expectedRows += score.expected;
    foundRows += score.found;
    pageAccuracies.push(score.found / score.expected);
    const shape = table ? `${table.header_rows}h+${table.row_count}x${table.column_count}` : '-';
    console.log(
      [
        page.id,
        table ? 'yes' : 'NO',
        `${score.found}/${score.expected}`,
        (score.found / score.expected).toFixed(3),
        shape,
        position,
        elapsed.toFixed(1),
      ].join('\t'),
    );
  }

  const meanPageAccuracy = pageAccuracies.reduce((a, b) => a + b, 0) / pageAccuracies.length;
  const perfect = pageAccuracies.filter((accuracy) => accuracy === 1).length;
  console.log('');
  console.log(
    `row accuracy (all rows pooled): ${(foundRows / expectedRows).toFixed(3)} (${foundRows}/${expectedRows})`,
  );
  console.log(
    `row accuracy (mean per page):   ${meanPageAccuracy.toFixed(3)}; pages with every row right: ${perfect}/${cases.length}`,
  );
  console.log(
    `table found rate:               ${(tablesFound / cases.length).toFixed(3)} (${tablesFound}/${cases.length})`,
  );
  console.log(`dataset index = position among auto tables: ${sameAsAutoOrder}/${cases.length}`);
  console.log(
    `speed: ${(cases.length / (extractionMs / 1000)).toFixed(1)} pages/s (${extractionMs.toFixed(0)} ms extracting)`,
  );
}

main();
