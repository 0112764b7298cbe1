/**
 * Every capability's input is bounded (issue 17): each string has a
 * maxLength (or is an enum/format of bounded size), each array a maxItems,
 * each record a bounded number of keys — so the cost of one request has a
 * ceiling, and the OpenAPI document says what it is.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxWeb, type SandboxWeb } from '../sandbox/sandbox-web.js';
import { startQuarry, type RunningQuarry } from './harness.js';

type Schema = Record<string, any>;

let web: SandboxWeb;
let quarry: RunningQuarry;

beforeAll(async () => {
  web = await startSandboxWeb();
  quarry = await startQuarry(web);
});

afterAll(async () => {
  await quarry?.close();
  await web?.close();
});

/** Paths (within one input schema) of strings, arrays and open objects without a bound. */
// biome-ignore lint/suspicious/noExportsInTest: a pure helper this file's own tests call; nothing imports it
export function unboundedPaths(
  schema: Schema,
  path = '(body)',
  definitions: Schema = {},
  seen = new Set<Schema>(),
): string[] {
  if (!schema || typeof schema !== 'object' || seen.has(schema)) return [];
  seen.add(schema);
  if (schema.$ref) {
    const name = String(schema.$ref).split('/').at(-1)!;
    return unboundedPaths(definitions[name] ?? {}, path, definitions, seen);
  }
  const out: string[] = [];
  for (const key of ['anyOf', 'oneOf', 'allOf'])
    for (const part of schema[key] ?? []) out.push(...unboundedPaths(part, path, definitions, seen));
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (
    types.includes('string') &&
    schema.maxLength === undefined &&
    schema.enum === undefined &&
    schema.const === undefined
  )
    out.push(path);
  if (types.includes('array')) {
    if (schema.maxItems === undefined) out.push(`${path}[]`);
    out.push(...unboundedPaths(schema.items ?? {}, `${path}[]`, definitions, seen));
  }
  if (types.includes('object')) {
    for (const [name, property] of Object.entries((schema.properties ?? {}) as Record<string, Schema>))
      out.push(...unboundedPaths(property, `${path}.${name}`, definitions, seen));
    const extra = schema.additionalProperties;
    if (extra && typeof extra === 'object') {
      if (schema.maxProperties === undefined) out.push(`${path}.*`);
      out.push(...unboundedPaths(extra, `${path}.*`, definitions, seen));
    }
  }
  return out;
}

describe('input bounds', () => {
  it('every input string, array and map of every route has a documented bound in /api/v1/openapi.json', async () => {
    const openapi = (await quarry.get('/api/v1/openapi.json')).body;
    const unbounded: string[] = [];
    for (const [path, operations] of Object.entries(openapi.paths as Record<string, Record<string, Schema>>)) {
      for (const [method, operation] of Object.entries(operations)) {
        const body = operation.requestBody?.content?.['application/json']?.schema;
        if (body)
          unbounded.push(
            ...unboundedPaths(body, '(body)', body.$defs ?? body.definitions ?? {}).map(
              (p) => `${method.toUpperCase()} ${path} ${p}`,
            ),
          );
        for (const parameter of operation.parameters ?? []) {
          unbounded.push(
            ...unboundedPaths(parameter.schema, parameter.name).map(
              (p) => `${method.toUpperCase()} ${path} ${parameter.in}:${p}`,
            ),
          );
        }
      }
    }
    expect(unbounded).toEqual([]);
  });
});
