/**
 * Token counting with OpenAI's cl100k_base byte-pair encoding, and the
 * mapping of token boundaries back to character offsets (fixed windows).
 */
import { createRequire } from 'node:module';
import type { Span } from './types.js';

type Cl100k = typeof import('gpt-tokenizer/encoding/cl100k_base');
type Ranks = typeof import('gpt-tokenizer/bpeRanks/cl100k_base')['default'];

/**
 * The encoding, loaded on first use and synchronously (the package's CommonJS
 * build): building it takes a good part of a process start (quarry mcp answers
 * its first requests before anything counts a token), so it is not built at import.
 */
let cl100k: { encode: Cl100k['encode']; ranks: Ranks; tokenByteLengths: Uint16Array } | undefined;
function encoding(): NonNullable<typeof cl100k> {
  if (cl100k) return cl100k;
  const load = createRequire(import.meta.url);
  const ranks = (load('gpt-tokenizer/bpeRanks/cl100k_base') as { default: Ranks }).default;
  // Byte length of each token id, filled on first use (0 = not yet known; no token is empty).
  cl100k = {
    encode: (load('gpt-tokenizer/encoding/cl100k_base') as Cl100k).encode,
    ranks,
    tokenByteLengths: new Uint16Array(ranks.length),
  };
  return cl100k;
}

export const TOKENIZER_NAME = 'cl100k_base (gpt-tokenizer)';

// Special-token strings such as "<|endoftext|>" in user text are plain text here, not control tokens.
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

/**
 * Byte-pair merging is quadratic in the length of one pre-tokenized piece, and
 * a run without spaces (CJK, base64, a line of "=") is a single piece: 30,000
 * CJK characters take seconds. Text is therefore encoded in segments of at
 * most this many characters. Cuts go before a space that precedes a letter,
 * where the encoder splits anyway, so counts stay exact; only runs longer than
 * this with no such space are cut mid-run (a token or so of difference per cut).
 */
const SEGMENT_LIMIT = 512;
const LETTER = /\p{L}/u;

export function encodeText(text: string): number[] {
  const { encode } = encoding();
  if (text.length <= SEGMENT_LIMIT) return text.length === 0 ? [] : encode(text, PLAIN_TEXT);
  const tokens: number[] = [];
  let start = 0;
  while (start < text.length) {
    const end = text.length - start <= SEGMENT_LIMIT ? text.length : segmentEnd(text, start);
    for (const token of encode(text.slice(start, end), PLAIN_TEXT)) tokens.push(token);
    start = end;
  }
  return tokens;
}

function segmentEnd(text: string, start: number): number {
  const limit = start + SEGMENT_LIMIT;
  for (let cut = limit; cut > start; cut--) {
    if (text[cut] === ' ' && LETTER.test(text[cut + 1] ?? '')) return cut;
  }
  const high = text.charCodeAt(limit - 1);
  return high >= 0xd800 && high <= 0xdbff ? limit - 1 : limit; // never between the halves of a pair
}

export function countTokens(text: string): number {
  return encodeText(text).length;
}

export function countSpanTokens(text: string, span: Span): number {
  return countTokens(text.slice(span.start, span.end));
}

const utf8 = new TextEncoder();

function tokenByteLength(token: number): number {
  const { ranks, tokenByteLengths } = encoding();
  const known = tokenByteLengths[token];
  if (known) return known;
  const entry = ranks[token];
  const length = entry === undefined ? 0 : typeof entry === 'string' ? utf8.encode(entry).length : entry.length;
  tokenByteLengths[token] = length;
  return length;
}

function utf8Length(codePoint: number): number {
  if (codePoint < 0x80) return 1;
  if (codePoint < 0x800) return 2;
  if (codePoint < 0x10000) return 3; // lone surrogates are encoded as U+FFFD, also 3 bytes
  return 4;
}

/**
 * UTF-16 offset in `text` after each token of its encoding (encoded once).
 * A token ending inside a multi-byte character is snapped back to the start
 * of that character, so offsets never split a code point.
 */
export function tokenEndOffsets(text: string): number[] {
  const tokens = encodeText(text);
  const ends = new Array<number>(tokens.length);
  let tokenBytesEnd = 0;
  let position = 0;
  let consumedBytes = 0;
  for (let i = 0; i < tokens.length; i++) {
    tokenBytesEnd += tokenByteLength(tokens[i]!);
    while (position < text.length) {
      const codePoint = text.codePointAt(position)!;
      const bytes = utf8Length(codePoint);
      if (consumedBytes + bytes > tokenBytesEnd) break;
      consumedBytes += bytes;
      position += codePoint > 0xffff ? 2 : 1;
    }
    ends[i] = position;
  }
  return ends;
}
