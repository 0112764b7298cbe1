/** JSON Schema generated from the zod declarations, for OpenAPI and MCP tool listings. */
import { z } from 'zod';

export type JsonSchemaObject = Record<string, unknown> & { type?: string; properties?: Record<string, unknown> };

const memo = new WeakMap<z.ZodType, Partial<Record<'input' | 'output', JsonSchemaObject>>>();

export function toJsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchemaObject {
  const entry = memo.get(schema) ?? {};
  if (!entry[io]) {
    const generated = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchemaObject;
    delete generated.$schema;
    entry[io] = generated;
    memo.set(schema, entry);
  }
  return entry[io]!;
}

/** MCP requires an object at the root of tool schemas; unions are wrapped. */
export function toObjectRootSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchemaObject {
  const generated = toJsonSchema(schema, io);
  return generated.type === 'object' ? generated : { type: 'object', ...generated };
}
