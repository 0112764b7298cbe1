/**
 * Checks on the shape of raw input that hold for every capability and host,
 * before any schema looks at it and whatever the unknown-field policy is:
 * no key that could reach an object's prototype, and no nesting deeper than
 * any capability needs (deep values cost recursion wherever they travel).
 */

/** Keys refused anywhere in input: they name or reach an object's prototype. */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);
/** Deepest nesting of objects and arrays accepted in input. */
export const MAX_INPUT_DEPTH = 32;

export interface InputShapeProblem {
  /** Dotted path of the offending key or value, e.g. "extraction_schema.__proto__". */
  field: string;
  message: string;
}

/** Where a value sits in the input: its key and its parent's place (built into a path only for a problem). */
interface Place {
  key: string;
  parent: Place | null;
  depth: number;
}

/**
 * The first shape problem in value (forbidden key, or nesting past MAX_INPUT_DEPTH), or null. Iterative: deep input
 * cannot exhaust the stack.
 */
export function findInputShapeProblem(value: unknown): InputShapeProblem | null {
  // Every request's input passes here (more than once over HTTP): no path is built unless one is reported.
  const pending: Array<{ value: unknown; place: Place | null }> = [{ value, place: null }];
  while (pending.length > 0) {
    const { value: current, place } = pending.pop()!;
    if (current === null || typeof current !== 'object') continue;
    const depth = place?.depth ?? 0;
    if (depth >= MAX_INPUT_DEPTH) {
      return { field: fieldName(place), message: `nested more than ${MAX_INPUT_DEPTH} levels deep` };
    }
    if (Array.isArray(current)) {
      for (let index = current.length - 1; index >= 0; index--) {
        const child: unknown = current[index];
        if (child !== null && typeof child === 'object')
          pending.push({ value: child, place: { key: String(index), parent: place, depth: depth + 1 } });
      }
      continue;
    }
    // Own keys only, read without touching accessors: JSON.parse makes "__proto__" an ordinary own key.
    const keys = Object.keys(current);
    for (const key of keys) {
      if (FORBIDDEN_KEYS.has(key)) {
        return {
          field: fieldName({ key, parent: place, depth: depth + 1 }),
          message: `the key "${key}" is not accepted (${[...FORBIDDEN_KEYS].join(', ')} are refused anywhere in input)`,
        };
      }
    }
    for (let index = keys.length - 1; index >= 0; index--) {
      const key = keys[index]!;
      const child = (current as Record<string, unknown>)[key];
      if (child !== null && typeof child === 'object')
        pending.push({ value: child, place: { key, parent: place, depth: depth + 1 } });
    }
  }
  return null;
}

function fieldName(place: Place | null): string {
  const path: string[] = [];
  for (let at = place; at; at = at.parent) path.unshift(at.key);
  return path.length > 0 ? path.join('.') : '(body)';
}

/**
 * True when JSON text nests arrays and objects more than `limit` deep. A
 * linear scan, run before JSON.parse: parsing a megabyte of "[[[[…" alone
 * blocks the event loop for most of a second.
 */
export function jsonNestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c) index++;
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) {
      inString = true;
    } else if (code === 0x5b || code === 0x7b) {
      if (++depth > limit) return true;
    } else if (code === 0x5d || code === 0x7d) {
      depth--;
    }
  }
  return false;
}
