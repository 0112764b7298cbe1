/** The OpenAPI 3.1 document, generated from the capability declarations. */
import type { AnyCapability } from '../../core/capability.js';
import { ERROR_CATALOGUE } from '../../core/errors.js';
import { toJsonSchema } from '../../core/json-schema.js';

const errorSchema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'string', enum: Object.keys(ERROR_CATALOGUE) },
        message: { type: 'string' },
        details: {},
      },
    },
  },
};

export function buildOpenApi(capabilities: AnyCapability[], version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const cap of capabilities) {
    const path = cap.http.path.replace(/:([A-Za-z_]+)/g, '{$1}');
    const input = toJsonSchema(cap.input, 'input') as { properties?: Record<string, unknown>; required?: string[] };
    const pathParams = [...cap.http.path.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]!);
    const operation: Record<string, unknown> = {
      operationId: cap.mcpTool,
      summary: cap.title,
      description: cap.description,
      tags: [cap.id.split('.')[0]],
      security: [{ apiKey: [] }, { bearer: [] }],
      responses: {
        [String(cap.http.status ?? 200)]: { description: 'Success', content: { 'application/json': { schema: toJsonSchema(cap.output, 'output') } } },
        ...Object.fromEntries(
          [400, 401, 404, 408, 413, 429, 431, 500, 502, 503, 504].map((status) => [
            String(status),
            { description: Object.values(ERROR_CATALOGUE).find((e) => e.status === status)?.title ?? 'Error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
          ]),
        ),
      },
    };
    const parameters: Array<Record<string, unknown>> = pathParams.map((name) => ({ name, in: 'path', required: true, schema: (input.properties?.[name] ?? { type: 'string' }) as object }));
    if (cap.http.method === 'POST') {
      operation.requestBody = { required: true, content: { 'application/json': { schema: input } } };
    } else {
      for (const [name, schema] of Object.entries(input.properties ?? {})) {
        if (pathParams.includes(name)) continue;
        parameters.push({ name, in: 'query', required: input.required?.includes(name) ?? false, schema });
      }
    }
    if (parameters.length > 0) operation.parameters = parameters;
    paths[path] = { ...(paths[path] ?? {}), [cap.http.method.toLowerCase()]: operation };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Quarry API',
      version,
      description:
        'Self-hosted web search, research, monitoring and knowledge-graph service. Every operation is also an MCP tool (operationId = tool name). ' +
        'Every input field states its bound (maxLength, maxItems, maxProperties); bodies are UTF-8 JSON of at most the configured body limit (1 MiB by default), ' +
        'nested at most 32 levels, and the keys __proto__, constructor and prototype are refused anywhere (400 naming the field).',
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    components: {
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        bearer: { type: 'http', scheme: 'bearer' },
      },
      schemas: { Error: errorSchema },
    },
    paths,
  };
}
