/**
 * Checks an answer against a spec table's response fields: each field is a
 * path with a type, e.g. `results[].published_date: string|null`.
 *
 * Paths: `a.b` walks objects, `a[]` every element of an array, `a{}` every
 * value of an object used as a map. The last segment must be present on
 * every object reached (unless the field is optional) with one of the
 * listed types. `strict` also fails a path that reaches nothing (an empty
 * list makes the check vacuous), so a contract's main answers prove every
 * field at least once.
 */

export type FieldType =
  | 'string'
  | 'integer'
  | 'number'
  | 'boolean'
  | 'object'
  | 'array'
  | 'null'
  | 'string[]'
  | 'integer[]'
  | 'number[]';

export interface FieldSpec {
  path: string;
  /** One type or several joined by `|`, e.g. `string|null`. */
  type: string;
  /** Absent is fine (spec: "present when …"); present, it must have the type. */
  optional?: boolean;
  /**
   * Required on every element, but the list holding it may be empty (evidence, failures): strict mode
   * does not ask for one value to check.
   */
  listMayBeEmpty?: boolean;
  /** A string value must match, e.g. /^req_/. */
  pattern?: RegExp;
  /** A value must be one of these (closed lists in the spec). */
  oneOf?: readonly unknown[];
}

/** Shorthand for a table row: `field('results[].rank', 'integer')`. */
export function field(path: string, type: string, extra: Omit<FieldSpec, 'path' | 'type'> = {}): FieldSpec {
  return { path, type, ...extra };
}

function typeOf(value: unknown): FieldType[] {
  if (value === null) return ['null'];
  if (Array.isArray(value)) {
    const kinds: FieldType[] = ['array'];
    if (value.every((v) => typeof v === 'string')) kinds.push('string[]');
    if (value.every((v) => Number.isInteger(v))) kinds.push('integer[]');
    if (value.every((v) => typeof v === 'number' && Number.isFinite(v))) kinds.push('number[]');
    return kinds;
  }
  if (typeof value === 'string') return ['string'];
  if (typeof value === 'boolean') return ['boolean'];
  if (typeof value === 'number')
    return Number.isInteger(value) ? ['integer', 'number'] : Number.isFinite(value) ? ['number'] : [];
  if (typeof value === 'object') return ['object'];
  return [];
}

interface Reached {
  where: string;
  value: unknown;
}

/** The parent objects a path's last segment is read from, with a readable location each. */
function parents(root: unknown, segments: string[], optional: Set<string>): { reached: Reached[]; problems: string[] } {
  let current: Reached[] = [{ where: '', value: root }];
  const problems: string[] = [];
  let prefix = '';
  for (const segment of segments) {
    const next: Reached[] = [];
    const match = /^([^[{]+)((?:\[\]|\{\})*)$/.exec(segment);
    if (!match) throw new Error(`bad path segment "${segment}"`);
    const [, key, iterators] = match;
    const keyPath = prefix ? `${prefix}.${key}` : key!;
    prefix = prefix ? `${prefix}.${segment}` : segment;
    for (const { where, value } of current) {
      const here = where ? `${where}.${key}` : key!;
      if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key!)) {
        // Inside an optional object that is absent there is nothing to check.
        if (!optional.has(keyPath)) problems.push(`${here} is missing`);
        continue;
      }
      let level: Reached[] = [{ where: here, value: (value as Record<string, unknown>)[key!] }];
      for (const iterator of iterators!.match(/\[\]|\{\}/g) ?? []) {
        const deeper: Reached[] = [];
        for (const item of level) {
          if (iterator === '[]') {
            if (!Array.isArray(item.value)) problems.push(`${item.where} is not an array`);
            else item.value.forEach((v, i) => deeper.push({ where: `${item.where}[${i}]`, value: v }));
          } else if (item.value === null || typeof item.value !== 'object' || Array.isArray(item.value)) {
            problems.push(`${item.where} is not an object`);
          } else {
            for (const [name, v] of Object.entries(item.value))
              deeper.push({ where: `${item.where}.${name}`, value: v });
          }
        }
        level = deeper;
      }
      next.push(...level);
    }
    current = next;
  }
  return { reached: current, problems };
}

/**
 * Fields the table does not declare, for a closed table: on every object the table describes, each
 * key must be a declared field. An object declared with no fields of its own (`counts: object`) is
 * opaque and not looked into.
 */
function undeclaredFields(body: unknown, fields: FieldSpec[]): string[] {
  // Paths as the walk below spells them: `.name` per key, `[]` per array level, `{}` per map level.
  const declared = new Set<string>();
  const described = new Set<string>(['']);
  for (const { path } of fields) {
    let walked = '';
    for (const segment of path.split('.')) {
      const [, key, iterators] = /^([^[{]+)((?:\[\]|\{\})*)$/.exec(segment) ?? [];
      walked = walked ? `${walked}.${key}` : key!;
      declared.add(walked);
      for (const iterator of iterators?.match(/\[\]|\{\}/g) ?? []) {
        described.add(walked);
        walked += iterator;
      }
      if (walked !== path) described.add(walked);
    }
  }
  const problems: string[] = [];
  const walk = (value: unknown, path: string, where: string): void => {
    if (Array.isArray(value)) {
      value.forEach((item, i) => walk(item, `${path}[]`, `${where}[${i}]`));
      return;
    }
    if (value === null || typeof value !== 'object' || !described.has(path)) return;
    if (described.has(`${path}{}`)) {
      for (const [name, item] of Object.entries(value)) walk(item, `${path}{}`, `${where}.${name}`);
      return;
    }
    for (const [name, item] of Object.entries(value)) {
      const child = path ? `${path}.${name}` : name;
      const here = where ? `${where}.${name}` : name;
      if (!declared.has(child)) problems.push(`${here} is not declared`);
      else walk(item, child, here);
    }
  };
  walk(body, '', '');
  return problems;
}

/** Every way the body breaks the field table; empty when it conforms. `closed` also refuses fields the table lacks. */
export function shapeProblems(
  body: unknown,
  fields: FieldSpec[],
  options: { strict: boolean; closed?: boolean },
): string[] {
  const problems: string[] = options.closed ? undeclaredFields(body, fields) : [];
  const optional = new Set(fields.filter((f) => f.optional).map((f) => f.path));
  for (const spec of fields) {
    const segments = spec.path.split('.');
    const last = segments.pop()!;
    const { reached, problems: missing } = parents(body, segments, optional);
    problems.push(...missing);
    const allowed = spec.type.split('|') as FieldType[];
    for (const { where, value } of reached) {
      const here = where ? `${where}.${last}` : last;
      if (value === null || typeof value !== 'object' || !Object.hasOwn(value, last)) {
        if (!spec.optional) problems.push(`${here} is missing (${spec.type})`);
        continue;
      }
      const actual = (value as Record<string, unknown>)[last];
      const kinds = typeOf(actual);
      if (!allowed.some((t) => kinds.includes(t)))
        problems.push(`${here} is ${JSON.stringify(actual)?.slice(0, 60)}, not ${spec.type}`);
      if (spec.pattern && typeof actual === 'string' && !spec.pattern.test(actual))
        problems.push(`${here} "${actual}" does not match ${spec.pattern}`);
      if (spec.oneOf && !spec.oneOf.includes(actual))
        problems.push(`${here} ${JSON.stringify(actual)} is not one of ${JSON.stringify(spec.oneOf)}`);
    }
    if (options.strict && reached.length === 0 && !spec.optional && !spec.listMayBeEmpty && missing.length === 0)
      problems.push(`${spec.path}: no value to check (empty list?)`);
  }
  return [...new Set(problems)];
}

/** Values that differ between two identical calls (ids, clocks, cache state), replaced for comparison. */
export const VOLATILE_KEYS = new Set([
  'request_id',
  'batch_id',
  'job_id',
  'status_url',
  'processing_time_ms',
  'response_time_ms',
  'search_time_ms',
  'extraction_time_ms',
  'enhanced_time_ms',
  'timestamp',
  'cached',
  'from_cache',
  'cached_at',
  'cache_hits',
  'timing',
  'created_at',
  'updated_at',
  'checked_at',
]);

/** A copy with volatile values (by key anywhere, or by exact path) replaced by a marker. */
export function withoutVolatile(value: unknown, extraPaths: string[] = [], path = ''): unknown {
  if (extraPaths.includes(path)) return '<volatile>';
  if (Array.isArray(value)) return value.map((v) => withoutVolatile(v, extraPaths, `${path}[]`));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => {
        const childPath = path ? `${path}.${k}` : k;
        return [k, VOLATILE_KEYS.has(k) ? '<volatile>' : withoutVolatile(v, extraPaths, childPath)];
      }),
    );
  }
  return value;
}
