import { describe, expect, it } from 'vitest';
import { markdownProblems } from '../../test/sandbox/markdown-safety.js';
import { renderMarkdownTable } from './table.js';

describe('renderMarkdownTable', () => {
  it('writes the header, the delimiter row and the rows, each cell escaped on one line', () => {
    const table = renderMarkdownTable(
      ['Name', 'Note'],
      [
        ['a|b', 'two\nlines <b>'],
        ['[x](javascript:1)', ''],
      ],
    );
    expect(table.split('\n')).toEqual([
      '| Name | Note |',
      '| --- | --- |',
      '| a\\|b | two lines &lt;b&gt; |',
      '| \\[x\\](javascript:1) |  |',
    ]);
    expect(markdownProblems(table, [])).toEqual([]);
  });
});
