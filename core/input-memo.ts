/**
 * Validated inputs by the text of their raw input, for capabilities that
 * declare `sharedInput` (their handler never changes its input): validating
 * the same raw input again gives the same value, and a repeated request — a
 * client asking a cached search again — is the common case, where schema
 * validation was the largest share of the answer's own work. Values are
 * deep-frozen, so a handler that did change one would fail loudly rather
 * than change another request's input. Bounded in entries and key length;
 * a raw input JSON cannot carry faithfully (NaN, undefined, a Date…) is
 * never looked up, so it is validated as it is.
 */
import { deepFreeze } from './frozen-json.js';

const MAX_ENTRIES = 256;
const MAX_KEY_CHARS = 4096;
const MAX_DEPTH = 8;

export class InputMemo {
  private readonly entries = new Map<string, unknown>();

  /** The memo's key for a raw input, or undefined when it is not memoised. */
  keyOf(capabilityId: string, raw: unknown): string | undefined {
    if (!isPlainJson(raw, 0)) return undefined;
    const text = JSON.stringify(raw);
    return text.length > MAX_KEY_CHARS ? undefined : `${capabilityId} ${text}`;
  }

  get(key: string): unknown {
    return this.entries.get(key);
  }

  /** Remembers a validated value (frozen here) and returns it. */
  remember(key: string, value: unknown): unknown {
    deepFreeze(value);
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, value);
    return value;
  }
}

/** Whether JSON text carries value exactly: strings, finite numbers, booleans, null, arrays and plain objects of them. */
function isPlainJson(value: unknown, depth: number): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value) && !Object.is(value, -0);
    case 'object': {
      if (value === null) return true;
      if (depth >= MAX_DEPTH) return false;
      if (Array.isArray(value)) return value.every((item) => isPlainJson(item, depth + 1));
      const proto = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) return false;
      for (const key in value) if (!isPlainJson((value as Record<string, unknown>)[key], depth + 1)) return false;
      return true;
    }
    default:
      return false;
  }
}
