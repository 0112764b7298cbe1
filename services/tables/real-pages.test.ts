import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { extractTables } from './extract-tables.js';

const fixture = (name: string): string =>
  gunzipSync(readFileSync(new URL(`./fixtures/${name}`, import.meta.url))).toString('utf8');

describe('extractTables on real pages (fixtures/PROVENANCE.md)', () => {
  it('Wikipedia "Microsoft": wikitables with caption, <br> headers and links', () => {
    const { tables } = extractTables(fixture('wikipedia-microsoft.html.gz'), {
      baseUrl: 'https://en.wikipedia.org/wiki/Microsoft',
    });

    const sales = tables.find((table) => table.caption?.startsWith('Sales by region'))!;
    expect(sales.caption).toBe('Sales by region (2023)[184]');
    expect(sales.headers).toEqual(['Region', 'Sales in billion $', 'share']);
    expect(sales.rows).toEqual([
      ['United States', '106.7', '50.4%'],
      ['Other countries', '105.2', '49.6%'],
    ]);

    const financials = tables.find((table) => table.headers[0] === 'Year')!;
    expect(financials.headers[1]).toBe('Revenue in million US$[190]');
    expect(financials.column_count).toBe(5);
    expect(financials.rows[0]).toEqual(['2005', '39,788', '12,254', '70,815', '61,000']);

    const shareholders = tables.find((table) => table.headers[0] === 'Shareholder name')!;
    expect(shareholders.rows[0]).toEqual(['The Vanguard Group', '8.9%']);
    expect(shareholders.links).toContainEqual({
      row: 1,
      column: 0,
      text: 'The Vanguard Group',
      url: 'https://en.wikipedia.org/wiki/The_Vanguard_Group',
    });
  });

  it('Wikipedia "Microsoft": navigation boxes are layout, kept only by "all"', () => {
    const html = fixture('wikipedia-microsoft.html.gz');
    const all = extractTables(html, { strategy: 'all' }).tables;
    const auto = extractTables(html).tables;
    const navbox = all.find((table) => table.headers[0]?.includes('Components of the Dow Jones Industrial Average'))!;
    expect(navbox.is_layout).toBe(true);
    expect(auto.map((table) => table.index)).not.toContain(navbox.index);
    expect(auto.length).toBeLessThan(all.length);
  });

  it('IndustrySelect (WCXB 0052): the one data table between header and footer layout tables', () => {
    const html = fixture('wcxb-0052-appliance-manufacturers.html.gz');
    const { tables } = extractTables(html, {
      baseUrl: 'https://www.industryselect.com/blog/top-10-appliance-manufacturers-in-the-usa',
    });
    expect(tables).toHaveLength(1);
    const [manufacturers] = tables;
    expect(manufacturers).toMatchObject({ index: 1, header_rows: 1, row_count: 10, column_count: 4, is_layout: false });
    expect(manufacturers!.headers).toEqual(['Company', 'City', 'State', 'Number of Employees']);
    expect(manufacturers!.rows[0]).toEqual(['Haier US Appliance Solutions, Inc.', 'Louisville', 'KY', '6,000']);
    expect(manufacturers!.rows[9]).toEqual(['Bradford White Water Heaters', 'Middleville', 'MI', '1,200']);

    const all = extractTables(html, { strategy: 'all' }).tables;
    expect(all.map((table) => table.is_layout)).toEqual([true, false, true]);
    expect(all[0]!.links).toContainEqual({
      row: 0,
      column: 1,
      text: 'Our Data',
      url: 'https://www.industryselect.com/about/',
    });
  });
});
