/**
 * Converts UTF-16 offsets (what JavaScript strings index by) into Unicode
 * code point offsets (what the API reports, like Python's str).
 */

const SURROGATE = /[\uD800-\uDFFF]/;

export type CodePointOffset = (utf16Offset: number) => number;

export function codePointOffsets(text: string): CodePointOffset {
  if (!SURROGATE.test(text)) return (offset) => offset;
  const table = new Uint32Array(text.length + 1);
  let codePoints = 0;
  for (let i = 0; i < text.length; i++) {
    table[i] = codePoints;
    const unit = text.charCodeAt(i);
    const pairsWithNext = unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length;
    const next = pairsWithNext ? text.charCodeAt(i + 1) : 0;
    if (pairsWithNext && next >= 0xdc00 && next <= 0xdfff) {
      table[i + 1] = codePoints; // the low half of a pair belongs to the same code point
      i++;
    }
    codePoints++;
  }
  table[text.length] = codePoints;
  return (offset) => table[offset]!;
}
