import { describe, expect, it } from 'vitest';
import { normalizeCell, parseWtqTsv, rowsWithHeader, scoreRows } from './row-accuracy.js';
import type { ExtractedTable } from './types.js';

describe('row accuracy scoring', () => {
  it('parses WikiTableQuestions tsv escapes', () => {
    expect(parseWtqTsv('Year\tTeam Record\\nW\n2001\ta\\pb\\\\c\n')).toEqual([
      ['Year', 'Team Record\nW'],
      ['2001', 'a|b\\c'],
    ]);
  });

  it('normalises whitespace and numbered footnote markers', () => {
    expect(normalizeCell(' Revenue\nin US$[190] ')).toBe('Revenue in US$');
    expect(normalizeCell('Level grade.[citation needed]')).toBe('Level grade.[citation needed]');
  });

  it('reads headers as the reference writes them and leaves out columns empty in every body row', () => {
    const table: ExtractedTable = {
      index: 0,
      caption: null,
      headers: ['Year', 'Team Record / W', 'Image'],
      rows: [
        ['2001', '7', ''],
        ['2002', '8', '[1]'],
      ],
      row_count: 2,
      column_count: 3,
      header_rows: 2,
      links: [],
      is_layout: false,
      truncated: false,
    };
    expect(rowsWithHeader(table)).toEqual([
      ['Year', 'Team Record W'],
      ['2001', '7'],
      ['2002', '8'],
    ]);
  });

  it('matches each reference row at most once', () => {
    expect(scoreRows([['a'], ['a'], ['b']], [['a'], ['b '], ['c']])).toEqual({ expected: 3, found: 2 });
  });
});
