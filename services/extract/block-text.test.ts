import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { readBlockText } from './block-text.js';
import { contentRoot, parseDocument } from './parse-document.js';

function blockTextOf(html: string): string {
  return readBlockText(contentRoot(parseDocument(html))).text;
}

describe('readBlockText', () => {
  it('joins cells with " | " and drops the separators of empty last cells', () => {
    expect(blockTextOf('<table><tr><td>a</td><td></td><td>b</td><td></td><td> </td></tr></table>')).toBe('a | | b');
  });
});
