/**
 * The `pattern` filter of URL discovery: a small glob language matched
 * against a URL's path+query (or the whole URL when it starts with "http").
 * Braces are expanded up front and each alternative is matched by dynamic
 * programming, so no pattern can make matching take more than
 * O(alternatives × pattern length × URL length): no regex backtracking.
 */
import { AppError } from '../../core/errors.js';

const MAX_PATTERN_LENGTH = 500;
const MAX_ALTERNATIVES = 256;

type Token =
  | { kind: 'literal'; char: string }
  /** `?`: one character other than '/'. */
  | { kind: 'one' }
  /** `*`: any run of characters without '/'. */
  | { kind: 'star' }
  /** `**`: any run of characters. */
  | { kind: 'globstar' }
  /** `/**\/`: '/' alone or '/…/', so `/a/**\/b` also matches `/a/b`. */
  | { kind: 'slashGlobstarSlash' };

export type UrlMatcher = (url: URL) => boolean;

/** Compiles a pattern; throws AppError INVALID_INPUT naming `pattern` when it cannot be read. Blank means "everything". */
export function compileUrlPattern(pattern: string | undefined): UrlMatcher {
  const source = pattern?.trim() ?? '';
  if (source === '') return () => true;
  if (source.length > MAX_PATTERN_LENGTH) invalid(`is longer than ${MAX_PATTERN_LENGTH} characters`);
  const wholeUrl = /^http/i.test(source);
  // Path patterns always match text starting with '/', so "blog/**" means "/blog/**".
  const anchored = wholeUrl || /^[/*?{]/.test(source) ? source : `/${source}`;
  const alternatives = expandBraces(anchored).map(tokenize);
  return (url) => {
    const subject = wholeUrl ? withoutFragment(url) : url.pathname + url.search;
    return alternatives.some((tokens) => matchTokens(tokens, subject));
  };
}

function invalid(reason: string): never {
  throw new AppError('INVALID_INPUT', `pattern ${reason}`, { details: { field: 'pattern' } });
}

function withoutFragment(url: URL): string {
  return url.hash ? url.href.slice(0, -url.hash.length) : url.href;
}

/** "a{b,c}d" → ["abd", "acd"]; nested braces work; backslash escapes survive for tokenize(). */
function expandBraces(pattern: string): string[] {
  const open = findUnescaped(pattern, '{', 0);
  if (open === -1) {
    if (findUnescaped(pattern, '}', 0) !== -1) invalid('has a "}" without a matching "{"');
    return [pattern];
  }
  const { close, parts } = splitBraceBody(pattern, open);
  const head = pattern.slice(0, open);
  if (findUnescaped(head, '}', 0) !== -1) invalid('has a "}" without a matching "{"');
  const tails = expandBraces(pattern.slice(close + 1));
  const expanded: string[] = [];
  for (const part of parts) {
    for (const middle of expandBraces(part)) {
      for (const tail of tails) {
        expanded.push(head + middle + tail);
        if (expanded.length > MAX_ALTERNATIVES) invalid(`expands to more than ${MAX_ALTERNATIVES} alternatives`);
      }
    }
  }
  return expanded;
}

/** The top-level comma-separated parts of the brace group opening at `open`. */
function splitBraceBody(pattern: string, open: number): { close: number; parts: string[] } {
  const parts: string[] = [];
  let depth = 0;
  let partStart = open + 1;
  for (let i = open + 1; i < pattern.length; i++) {
    const char = pattern[i];
    if (char === '\\') {
      i++;
    } else if (char === '{') {
      depth++;
    } else if (char === '}' && depth > 0) {
      depth--;
    } else if (char === '}') {
      parts.push(pattern.slice(partStart, i));
      return { close: i, parts };
    } else if (char === ',' && depth === 0) {
      parts.push(pattern.slice(partStart, i));
      partStart = i + 1;
    }
  }
  invalid('has a "{" without a matching "}"');
}

function findUnescaped(text: string, wanted: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === wanted) return i;
  }
  return -1;
}

function tokenize(pattern: string): Token[] {
  const tokens: Token[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i]!;
    if (char === '\\') {
      const escaped = pattern[i + 1];
      if (escaped === undefined) invalid('ends with a lone "\\"');
      tokens.push({ kind: 'literal', char: escaped });
      i++;
    } else if (char === '*' && pattern[i + 1] === '*') {
      while (pattern[i + 1] === '*') i++;
      const previous = tokens.at(-1);
      if (previous?.kind === 'literal' && previous.char === '/' && pattern[i + 1] === '/') {
        tokens[tokens.length - 1] = { kind: 'slashGlobstarSlash' };
        i++;
      } else {
        tokens.push({ kind: 'globstar' });
      }
    } else if (char === '*') {
      tokens.push({ kind: 'star' });
    } else if (char === '?') {
      tokens.push({ kind: 'one' });
    } else {
      tokens.push({ kind: 'literal', char });
    }
  }
  return tokens;
}

/** reachable[i]: the tokens so far can consume exactly subject[0, i). */
function matchTokens(tokens: Token[], subject: string): boolean {
  const length = subject.length;
  let reachable = new Array<boolean>(length + 1).fill(false);
  reachable[0] = true;
  for (const token of tokens) {
    const next = new Array<boolean>(length + 1).fill(false);
    switch (token.kind) {
      case 'literal':
      case 'one':
        for (let i = 0; i < length; i++) {
          const char = subject[i];
          const fits = token.kind === 'literal' ? char === token.char : char !== '/';
          if (reachable[i] && fits) next[i + 1] = true;
        }
        break;
      case 'star':
      case 'globstar':
        for (let i = 0; i <= length; i++) {
          const extends_ = i > 0 && next[i - 1] === true && (token.kind === 'globstar' || subject[i - 1] !== '/');
          next[i] = reachable[i] === true || extends_;
        }
        break;
      case 'slashGlobstarSlash': {
        // From a reachable '/' at i, reach every j > i whose previous character is '/'.
        let openedAtSlash = false;
        for (let i = 0; i < length; i++) {
          if (reachable[i] && subject[i] === '/') openedAtSlash = true;
          if (openedAtSlash && subject[i] === '/') next[i + 1] = true;
        }
        break;
      }
    }
    reachable = next;
  }
  return reachable[length] === true;
}
