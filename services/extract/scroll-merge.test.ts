import { describe, expect, it } from 'vitest';
import { blocksText } from '../page-analysis/blocks-text.js';
import { pageBlocks } from '../page-analysis/text-blocks.js';
import { mergeScrollSnapshots } from './scroll-merge.js';

describe('merging virtual-scroll snapshots', () => {
  it('adds the items that scrolled away, each once, after the final page', () => {
    const final = '<html><body><h1>Feed</h1><ul id="feed"><li>Item 5 text</li><li>Item 6 text</li></ul></body></html>';
    const snapshots = [
      '<ul id="feed"><li>Item 1 text</li><li>Item 2 text</li></ul>',
      '<ul id="feed"><li>Item 2 text</li><li>Item 3 text</li><li>Item 4 text</li></ul>',
      '<ul id="feed"><li>Item 5 text</li><li>Item 6 text</li></ul>',
    ];
    const text = blocksText(pageBlocks(mergeScrollSnapshots(final, snapshots)));
    for (let i = 1; i <= 6; i++) expect(text.split(`Item ${i} text`).length - 1, `item ${i}`).toBe(1);
    expect(text.indexOf('Item 1 text')).toBeLessThan(text.indexOf('Item 4 text'));
  });

  it('leaves the page alone without snapshots', () => {
    expect(mergeScrollSnapshots('<p>x</p>', [])).toBe('<p>x</p>');
  });
});
