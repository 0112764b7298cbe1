/**
 * What the HTTP host accepts beside the declared input, as the original
 * service did (MCP tool schemas stay strict):
 *   - field aliases older SDKs send (top_k for num_results, …), renamed to
 *     the declared field; sending both names with different values is a 400;
 *   - unknown top-level fields, dropped and named back to the client in the
 *     X-Quarry-Ignored-Fields header so that a typo stays visible.
 * A known field with a wrong type or bound is still rejected by validation.
 */
import type { AnyCapability } from '../../core/capability.js';
import { AppError } from '../../core/errors.js';
import { toJsonSchema } from '../../core/json-schema.js';

export const IGNORED_FIELDS_HEADER = 'x-quarry-ignored-fields';
/** Keeps the header short whatever a client sends. */
const MAX_NAMES_IN_HEADER = 20;
const MAX_NAME_CHARS = 64;

export interface HttpInput {
  input: Record<string, unknown>;
  /** Top-level fields the capability does not declare, dropped. */
  ignored: string[];
  /** Declared field → the alias it arrived under. */
  aliased: Map<string, string>;
}

/** The top-level fields a capability declares. */
export function declaredFields(capability: AnyCapability): Set<string> {
  const schema = toJsonSchema(capability.input, 'input') as { properties?: Record<string, unknown> };
  return new Set(Object.keys(schema.properties ?? {}));
}

export function prepareHttpInput(
  raw: Record<string, unknown>,
  capability: AnyCapability,
  declared: Set<string>,
): HttpInput {
  const input: Record<string, unknown> = {};
  const ignored: string[] = [];
  const aliased = new Map<string, string>();
  const aliases = capability.http.fieldAliases ?? {};
  let aliasSent = false;
  for (const [name, value] of Object.entries(raw)) {
    if (declared.has(name)) input[name] = value;
    else if (Object.hasOwn(aliases, name)) aliasSent = true;
    else ignored.push(name);
  }
  if (!aliasSent) return { input, ignored, aliased };
  for (const [alias, definition] of Object.entries(aliases)) {
    if (!Object.hasOwn(raw, alias)) continue;
    const mapped = definition.map ? definition.map(raw[alias]) : { value: raw[alias] };
    if ('ignore' in mapped) continue;
    if (
      Object.hasOwn(input, definition.field) &&
      JSON.stringify(input[definition.field]) !== JSON.stringify(mapped.value)
    ) {
      throw new AppError(
        'INVALID_INPUT',
        `invalid input: ${alias}: is another name for ${definition.field}, and both were sent with different values; send one`,
        {
          details: { issues: [{ field: alias, message: `another name for ${definition.field}; send one of them` }] },
        },
      );
    }
    input[definition.field] = mapped.value;
    aliased.set(definition.field, alias);
  }
  return { input, ignored, aliased };
}

/** The header value naming ignored fields: each URI-encoded (no commas or control characters), bounded. */
export function ignoredFieldsHeader(ignored: string[]): string {
  const names = ignored.slice(0, MAX_NAMES_IN_HEADER).map((name) => encodeURIComponent(name.slice(0, MAX_NAME_CHARS)));
  const more = ignored.length - names.length;
  return more > 0 ? `${names.join(', ')}, ...(${more} more)` : names.join(', ');
}

/** A validation error about a field that arrived under an alias names the alias the client sent. */
export function nameAliasesInError(error: AppError, aliased: Map<string, string>): AppError {
  if (error.code !== 'INVALID_INPUT' || aliased.size === 0) return error;
  const details = error.details as { issues?: Array<{ field: string; message: string }> } | undefined;
  if (!details?.issues) return error;
  let renamed = false;
  const issues = details.issues.map((issue) => {
    const top = issue.field.split('.')[0]!;
    const alias = aliased.get(top);
    if (!alias) return issue;
    renamed = true;
    return { ...issue, field: alias + issue.field.slice(top.length) };
  });
  if (!renamed) return error;
  const summary = issues.map((i) => (i.field === '(body)' ? i.message : `${i.field}: ${i.message}`)).join('; ');
  return new AppError('INVALID_INPUT', `invalid input: ${summary}`, { details: { ...details, issues }, cause: error });
}
