/**
 * Plain text of text blocks; apart from text-blocks.ts, so main-thread code can join blocks the worker pool made
 * without loading a parser.
 */
import type { TextBlock } from './text-blocks.js';

/** Plain text of blocks, one paragraph each. */
export function blocksText(blocks: TextBlock[]): string {
  return blocks.map((b) => b.text).join('\n\n');
}
