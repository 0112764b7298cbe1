import { describe, expect, it } from 'vitest';
import { AppError } from '../../core/errors.js';
import { extractTables } from './extract-tables.js';

const only = (html: string, strategy: 'auto' | 'all' = 'all') => {
  const { tables } = extractTables(html, { strategy });
  expect(tables).toHaveLength(1);
  return tables[0]!;
};

describe('extractTables: grid', () => {
  it('repeats a spanned cell in every grid cell it covers', () => {
    const table = only(`<table>
      <tr><th>Year</th><th>City</th><th>Result</th></tr>
      <tr><td rowspan="2">1994</td><td colspan="2">Cancelled</td></tr>
      <tr><td>Oslo</td><td>2nd</td></tr>
      <tr><td>1995</td><td>Bormio</td><td>1st</td></tr>
    </table>`);
    expect(table.headers).toEqual(['Year', 'City', 'Result']);
    expect(table.rows).toEqual([
      ['1994', 'Cancelled', 'Cancelled'],
      ['1994', 'Oslo', '2nd'],
      ['1995', 'Bormio', '1st'],
    ]);
    expect(table).toMatchObject({ row_count: 3, column_count: 3, header_rows: 1 });
  });

  it('reads rowspan="0" as "to the end of the row group" and pads ragged rows', () => {
    const table = only(`<table><tbody>
      <tr><td rowspan="0">A</td><td>1</td><td>x</td></tr>
      <tr><td>2</td></tr>
      <tr><td>3</td><td>z</td></tr>
    </tbody><tbody><tr><td>B</td><td>4</td><td>w</td></tr></tbody></table>`);
    expect(table.rows).toEqual([
      ['A', '1', 'x'],
      ['A', '2', ''],
      ['A', '3', 'z'],
      ['B', '4', 'w'],
    ]);
  });

  it('draws <thead> first and <tfoot> last, whatever their order in the source', () => {
    const table = only(`<table><tfoot><tr><td>Total</td><td>3</td></tr></tfoot>
      <tbody><tr><td>a</td><td>1</td></tr><tr><td>b</td><td>2</td></tr></tbody>
      <thead><tr><td>Name</td><td>Count</td></tr></thead></table>`);
    expect(table.headers).toEqual(['Name', 'Count']);
    expect(table.rows).toEqual([
      ['a', '1'],
      ['b', '2'],
      ['Total', '3'],
    ]);
  });
});

describe('extractTables: headers', () => {
  it('joins several header rows as "Top / Sub", once per rowspanned name, ignoring an empty overflow cell', () => {
    const table = only(`<table>
      <tr><th rowspan="2">Year</th><th colspan="2">Team Record</th><th rowspan="2">Playoffs</th></tr>
      <tr><th>W</th><th>L</th><th></th></tr>
      <tr><td>2001</td><td>7</td><td>2</td><td>3rd Qualifier</td></tr>
    </table>`);
    expect(table.header_rows).toBe(2);
    expect(table.headers).toEqual(['Year', 'Team Record / W', 'Team Record / L', 'Playoffs']);
    expect(table.rows).toEqual([['2001', '7', '2', '3rd Qualifier']]);
    expect(table.column_count).toBe(4);
  });

  it('takes a first row of bold cells as the header', () => {
    const table = only(
      '<table><tr><td><b>Name</b></td><td><strong>Age</strong></td></tr><tr><td>Ann</td><td>31</td></tr></table>',
    );
    expect(table.headers).toEqual(['Name', 'Age']);
    expect(table.rows).toEqual([['Ann', '31']]);
  });

  it('finds no header in a table of plain cells, and keeps <th> row headers in the body', () => {
    const plain = only('<table><tr><td>Ann</td><td>31</td></tr><tr><td>Bob</td><td>42</td></tr></table>');
    expect(plain).toMatchObject({ headers: [], header_rows: 0, row_count: 2 });
    const rowHeaders = only('<table><tr><th>Ann</th><td>31</td></tr><tr><th>Bob</th><td>42</td></tr></table>');
    expect(rowHeaders.header_rows).toBe(0);
    expect(rowHeaders.rows).toEqual([
      ['Ann', '31'],
      ['Bob', '42'],
    ]);
  });
});

describe('extractTables: cell text', () => {
  it('collapses whitespace, turns <br> into a space, keeps footnote markers and drops hidden sort keys', () => {
    const table =
      only(`<table><tr><th>Revenue<br/>in million US$<sup><a href="#cite_note-1">[1]</a></sup></th><th>Player</th></tr>
      <tr><td>  39,788
      </td><td><span class="sortkey">Srikkanth, Kris</span><a href="/wiki/Kris">Kris&nbsp;Srikkanth</a><span style="display:none">hidden</span></td></tr></table>`);
    expect(table.headers).toEqual(['Revenue in million US$[1]', 'Player']);
    expect(table.rows).toEqual([['39,788', 'Kris Srikkanth']]);
  });

  it('reads the caption, and null when there is none', () => {
    const html =
      '<table><caption> Sales  by region ' +
      '</caption><tr><th>Region</th><th>Sales</th></tr><tr><td>US</td><td>106.7</td></tr></table>';
    expect(only(html).caption).toBe('Sales by region');
    expect(only(html.replace(/<caption>.*<\/caption>/, '')).caption).toBeNull();
  });
});

describe('extractTables: links', () => {
  const html = `<table><tr><th><a href="/sort">Name</a></th><th>Site</th></tr>
    <tr><td><a href="people/ann">Ann</a></td><td><a href="https://ann.example/">home</a> <a href="javascript:void(0)">menu</a></td></tr></table>`;

  it('resolves relative links against baseUrl and numbers rows from the top, header rows included', () => {
    const { tables } = extractTables(html, { baseUrl: 'https://site.example/team/index.html' });
    expect(tables[0]!.links).toEqual([
      { row: 0, column: 0, text: 'Name', url: 'https://site.example/sort' },
      { row: 1, column: 0, text: 'Ann', url: 'https://site.example/team/people/ann' },
      { row: 1, column: 1, text: 'home', url: 'https://ann.example/' },
    ]);
  });

  it('prefers the page <base href>, and leaves links as written when no base is known', () => {
    const withBase = extractTables(
      `<html><head><base href="https://cdn.example/root/"></head><body>${html}</body></html>`,
      {
        baseUrl: 'https://site.example/',
      },
    );
    expect(withBase.tables[0]!.links[1]!.url).toBe('https://cdn.example/root/people/ann');
    expect(extractTables(html).tables[0]!.links[1]!.url).toBe('people/ann');
  });
});

describe('extractTables: nested and layout tables', () => {
  const page = `
    <table role="presentation"><tr><td>Menu</td><td>Home</td></tr></table>
    <table id="wrapper"><tr><td>Sidebar</td><td>
      <table><tr><th>Item</th><th>Price</th></tr><tr><td>Tea</td><td>2.50</td></tr><tr><td>Coffee</td><td>3.00</td></tr></table>
    </td></tr></table>
    <table><tr><td><form><input name="q"></form></td><td><button>Search</button></td></tr></table>
    <table><tr><td>${('A long paragraph of prose ' + 'laid out in a table cell. ').repeat(5)}</td><td>${'More prose. '.repeat(15)}</td></tr></table>
    <table></table>`;

  it('keeps only the data table under auto, with its document-order index', () => {
    const { tables, strategy } = extractTables(page);
    expect(strategy).toBe('auto');
    expect(tables.map((table) => [table.index, table.is_layout])).toEqual([[2, false]]);
    expect(tables[0]!.rows).toEqual([
      ['Tea', '2.50'],
      ['Coffee', '3.00'],
    ]);
  });

  it('returns every table under all, the wrapper without the inner table text', () => {
    const { tables } = extractTables(page, { strategy: 'all' });
    expect(tables.map((table) => [table.index, table.is_layout])).toEqual([
      [0, true],
      [1, true],
      [2, false],
      [3, true],
      [4, true],
      [5, true],
    ]);
    expect(tables[1]!.rows).toEqual([['Sidebar']]);
    expect(tables[5]).toMatchObject({
      headers: [],
      rows: [],
      row_count: 0,
      column_count: 0,
      header_rows: 0,
      links: [],
    });
  });

  it('layout_aware adds the layout tables holding text of their own, flagged', () => {
    const { tables } = extractTables(page, { strategy: 'layout_aware' });
    expect(tables.map((table) => [table.index, table.is_layout])).toEqual([
      [0, true],
      [1, true],
      [2, false],
      [3, true],
      [4, true],
    ]);
  });

  it('data also requires two rows and two columns', () => {
    const html = `<table><tr><th>Only</th><th>Row</th></tr></table>
      <table><tr><th>Column</th></tr><tr><td>a</td></tr><tr><td>b</td></tr></table>
      <table><tr><th>Name</th><th>Age</th></tr><tr><td>Ann</td><td>31</td></tr></table>`;
    expect(extractTables(html, { strategy: 'auto' }).tables.map((table) => table.index)).toEqual([0, 1, 2]);
    expect(extractTables(html, { strategy: 'data' }).tables.map((table) => table.index)).toEqual([2]);
  });

  it('drops a navigation box: a title over one row of link lists', () => {
    const links = Array.from({ length: 8 }, (_, i) => `<a href="/p${i}">Page ${i}</a>`).join(' ');
    const html = `<table><tr><th colspan="2">Related pages</th></tr><tr><th>Topics</th><td>${links}</td></tr></table>`;
    expect(extractTables(html).tables).toEqual([]);
  });
});

describe('extractTables: input', () => {
  it('refuses an unknown strategy and a relative base URL with INVALID_INPUT', () => {
    const strategy = 'every' as unknown as 'all';
    expect(() => extractTables('<table></table>', { strategy })).toThrow(AppError);
    try {
      extractTables('<table></table>', { baseUrl: 'not a url' });
      expect.unreachable();
    } catch (error) {
      expect((error as AppError).code).toBe('INVALID_INPUT');
    }
  });

  it('returns no tables for a page without any', () => {
    expect(extractTables('<p>No tables here</p>')).toEqual({ tables: [], strategy: 'auto', truncated: false });
  });
});
