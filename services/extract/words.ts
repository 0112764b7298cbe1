/** Word counting that also works for scripts written without spaces. */

// Han, Hiragana and Katakana are written without spaces: each character counts as a word.
const UNSPACED_SCRIPT = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/gu;
const HAS_LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

export function countWords(text: string): number {
  const spaced = text.replace(UNSPACED_SCRIPT, ' x ');
  let count = 0;
  for (const token of spaced.split(/\s+/)) {
    if (token && HAS_LETTER_OR_DIGIT.test(token)) count += 1;
  }
  return count;
}
