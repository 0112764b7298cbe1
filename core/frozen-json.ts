/**
 * JSON for answers built from deep-frozen parts (a cached search's metadata
 * and results): a frozen value cannot change, so its JSON is encoded to UTF-8
 * once, and later answers carrying it splice those bytes: exactly the UTF-8 of
 * JSON.stringify's text. Bytes, because spliced text is a rope that a reply
 * flattens, measures and encodes on every send (15 µs for 5 kB, one non-ASCII
 * character in it; joining the bytes takes 3).
 * Only values frozen by deepFreeze count (Object.isFrozen is shallow: a nested change would go unseen).
 */

const deepFrozen = new WeakSet<object>();
const encodings = new WeakMap<object, Buffer>();

/**
 * Freezes value and everything in it and remembers it as unchangeable; returns its size in string characters (a memory
 * estimate).
 */
export function deepFreeze(value: unknown): number {
  if (typeof value === 'string') return value.length;
  if (value === null || typeof value !== 'object') return 8;
  let chars = 0;
  for (const child of Object.values(value)) chars += deepFreeze(child) + 8;
  Object.freeze(value);
  deepFrozen.add(value);
  return chars;
}

/**
 * A plain object's JSON in pieces: text, and its deep-frozen top-level values' remembered UTF-8; undefined without such
 * parts.
 */
export function frozenJsonPieces(answer: object): Array<string | Buffer> | undefined {
  if (Array.isArray(answer) || Object.getPrototypeOf(answer) !== Object.prototype) return undefined;
  const record = answer as Record<string, unknown>;
  const keys = Object.keys(record);
  if (!keys.some((key) => isDeepFrozen(record[key]))) return undefined;
  const pieces: Array<string | Buffer> = [];
  let text = ''; // keys and fresh values since the last frozen part
  for (const key of keys) {
    const value = record[key];
    const frozen = isDeepFrozen(value) ? encodingOf(value) : undefined;
    const encoded = frozen ?? (JSON.stringify(value) as string | undefined);
    // Like JSON.stringify: undefined, functions and symbols leave their key out.
    if (encoded === undefined) continue;
    text += `${text === '' && pieces.length === 0 ? '{' : ','}${keyJson(key)}:${frozen ? '' : encoded}`;
    if (frozen) {
      pieces.push(text, frozen);
      text = '';
    }
  }
  return pieces.length === 0 ? undefined : [...pieces, `${text}}`];
}

/** Answers reuse a handful of top-level keys: each encoded once. */
const keyEncodings = new Map<string, string>();
const MAX_KEYS_REMEMBERED = 1000;

function keyJson(key: string): string {
  let json = keyEncodings.get(key);
  if (json === undefined) {
    json = JSON.stringify(key);
    if (keyEncodings.size < MAX_KEYS_REMEMBERED) keyEncodings.set(key, json);
  }
  return json;
}

/** Whether value was frozen whole by deepFreeze (and so can never change). */
export function isDeepFrozen(value: unknown): value is object {
  return typeof value === 'object' && value !== null && deepFrozen.has(value);
}

function encodingOf(value: object): Buffer | undefined {
  let json = encodings.get(value);
  if (json === undefined) {
    const text = JSON.stringify(value) as string | undefined;
    if (text === undefined) return undefined;
    json = Buffer.from(text);
    encodings.set(value, json);
  }
  return json;
}
