/**
 * JSON text for answers built from deep-frozen parts (a cached search's
 * metadata and results): a frozen value cannot change, so its JSON is
 * encoded once, on first use, and every later answer that carries the same
 * value splices that text instead of serialising it again. The result is
 * exactly what JSON.stringify gives for the whole answer.
 *
 * Only values frozen here (deepFreeze) count: Object.isFrozen is shallow and
 * would let a changed nested object keep stale JSON.
 */

const deepFrozen = new WeakSet<object>();
const encodings = new WeakMap<object, string>();

/** Freezes value and everything in it and remembers it as unchangeable; returns its size in string characters (a memory estimate). */
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
 * The JSON of a plain object, its deep-frozen top-level values from their
 * remembered encoding; undefined when it has none (nothing to gain: the
 * caller serialises as usual).
 */
export function encodeWithFrozenParts(answer: object): string | undefined {
  if (Array.isArray(answer) || Object.getPrototypeOf(answer) !== Object.prototype) return undefined;
  const entries = Object.entries(answer);
  if (!entries.some(([, value]) => isDeepFrozen(value))) return undefined;
  let json = '';
  for (const [key, value] of entries) {
    const encoded = isDeepFrozen(value) ? encodingOf(value) : (JSON.stringify(value) as string | undefined);
    // Like JSON.stringify: undefined, functions and symbols leave their key out.
    if (encoded === undefined) continue;
    json += `${json === '' ? '{' : ','}${keyJson(key)}:${encoded}`;
  }
  return json === '' ? '{}' : `${json}}`;
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

function encodingOf(value: object): string | undefined {
  let json = encodings.get(value);
  if (json === undefined) {
    json = JSON.stringify(value) as string | undefined;
    if (json === undefined) return undefined;
    encodings.set(value, json);
  }
  return json;
}
