/**
 * A unified line diff of two texts (the `diff` package), in the extraction
 * worker pool: the texts are pages' markdown, and the diff's cost grows with
 * their length times the size of the edit, so a large page edited throughout
 * could hold a thread for seconds. Bounded twice: by the number of changed
 * lines worked out, and by a time limit the diff itself keeps; past either
 * the answer is null (too large to diff), never a stall.
 */
import { formatPatch, structuredPatch, type StructuredPatch } from 'diff';
import { AppError } from '../../core/errors.js';

/** Characters of each text diffed: enough for any article, bounded so one page cannot cost without limit. */
export const MAX_DIFF_CHARS = 1_000_000;
/** Beyond this many changed lines the diff is not worked out (its cost grows with the edit). */
export const MAX_EDIT_LENGTH = 5_000;
/** Longest the diff may take before it gives up. */
export const DIFF_TIME_LIMIT_MS = 2_000;

export interface LineDiffTask {
  /** The name both sides carry in the patch (a URL). */
  name: string;
  before: string;
  after: string;
  context: number;
}

export interface LineDiff {
  patch: StructuredPatch;
  /** The patch as unified diff text. */
  text: string;
}

export function lineDiff(task: LineDiffTask, timeLimitMs = DIFF_TIME_LIMIT_MS): LineDiff | null {
  for (const [side, text] of [
    ['before', task.before],
    ['after', task.after],
  ] as const)
    if (text.length > MAX_DIFF_CHARS)
      throw new AppError(
        'INVALID_INPUT',
        `diff: the ${side} text has ${text.length} characters, over ${MAX_DIFF_CHARS}`,
        {
          details: { reason: 'DIFF_TOO_LARGE', maxChars: MAX_DIFF_CHARS },
        },
      );
  const patch = structuredPatch(task.name, task.name, task.before, task.after, undefined, undefined, {
    context: task.context,
    maxEditLength: MAX_EDIT_LENGTH,
    timeout: timeLimitMs,
  });
  return patch ? { patch, text: formatPatch(patch) } : null;
}
