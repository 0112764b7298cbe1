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
 *
 * A raw input that is itself deep-frozen (an HTTP body parsed once for many
 * requests, hosts/http/json-body.ts) cannot change, so it is remembered by
 * identity as well: its repeats skip building the text.
 */
import { deepFreeze, isDeepFrozen } from './frozen-json.js';

const MAX_ENTRIES = 256;
const MAX_KEY_CHARS = 4096;
const MAX_DEPTH = 8;

export class InputMemo {
  private readonly entries = new Map<string, unknown>();
  private readonly byIdentity = new Map<string, WeakMap<object, unknown>>();

  /** The validated value of raw for a capability: remembered, or made by validate and remembered when it can be. */
  validated(capabilityId: string, raw: unknown, validate: () => unknown): unknown {
    if (!isDeepFrozen(raw)) return this.validatedByText(capabilityId, raw, validate);
    let known = this.byIdentity.get(capabilityId);
    if (!known) this.byIdentity.set(capabilityId, (known = new WeakMap()));
    let value = known.get(raw);
    if (value === undefined) {
      value = this.validatedByText(capabilityId, raw, validate);
      // Frozen already when remembered by text too; not when its text is not kept (too long).
      deepFreeze(value);
      known.set(raw, value);
    }
    return value;
  }

  private validatedByText(capabilityId: string, raw: unknown, validate: () => unknown): unknown {
    const key = this.keyOf(capabilityId, raw);
    if (key === undefined) return validate();
    const known = this.entries.get(key);
    return known !== undefined ? known : this.remember(key, validate());
  }

  /** The memo's key for a raw input, or undefined when it is not memoised. */
  private keyOf(capabilityId: string, raw: unknown): string | undefined {
    if (!isPlainJson(raw, 0)) return undefined;
    const text = JSON.stringify(raw);
    return text.length > MAX_KEY_CHARS ? undefined : `${capabilityId} ${text}`;
  }

  /** Remembers a validated value (frozen here) and returns it. */
  private remember(key: string, value: unknown): unknown {
    deepFreeze(value);
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, value);
    return value;
  }
}

/**
 * Whether JSON text carries value exactly: strings, finite numbers, booleans, null, arrays and plain objects of them.
 */
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
