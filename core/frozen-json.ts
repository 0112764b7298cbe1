/**
 * JSON text for answers built from deep-frozen parts (a cached search's
 * metadata and results): a frozen value cannot change, so its JSON is
 * encoded once, on first use, and every later answer that carries the same
 * value splices those bytes instead of serialising it again. The bytes are
 * exactly what JSON.stringify gives for the whole answer.
 *
 * Only values frozen here (deepFreeze) count: Object.isFrozen is shallow and
 * would let a changed nested object keep stale bytes.
 */

const deepFrozen = new WeakSet<object>();
const encodings = new WeakMap<object, Buffer>();

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
 * The JSON of a plain object as UTF-8, its deep-frozen top-level values from
 * their remembered encoding; undefined when it has none (nothing to gain:
 * the caller serialises as usual).
 */
export function encodeWithFrozenParts(answer: object): Buffer | undefined {
  if (Array.isArray(answer) || Object.getPrototypeOf(answer) !== Object.prototype) return undefined;
  const entries = Object.entries(answer);
  if (!entries.some(([, value]) => isDeepFrozen(value))) return undefined;
  const parts: Array<string | Buffer> = [];
  let length = 2;
  for (const [key, value] of entries) {
    const encoded = isDeepFrozen(value) ? encodingOf(value) : JSON.stringify(value);
    // Like JSON.stringify: undefined, functions and symbols leave their key out.
    if (encoded === undefined) continue;
    const name = `${parts.length === 0 ? '' : ','}${JSON.stringify(key)}:`;
    parts.push(name, encoded);
    length += Buffer.byteLength(name) + (typeof encoded === 'string' ? Buffer.byteLength(encoded) : encoded.length);
  }
  const bytes = Buffer.allocUnsafe(length);
  let at = bytes.write('{');
  for (const part of parts) at += typeof part === 'string' ? bytes.write(part, at) : part.copy(bytes, at);
  bytes.write('}', at);
  return bytes;
}

function isDeepFrozen(value: unknown): value is object {
  return typeof value === 'object' && value !== null && deepFrozen.has(value);
}

function encodingOf(value: object): Buffer | undefined {
  let bytes = encodings.get(value);
  if (!bytes) {
    const text = JSON.stringify(value) as string | undefined;
    if (text === undefined) return undefined;
    bytes = Buffer.from(text);
    encodings.set(value, bytes);
  }
  return bytes;
}
