/**
 * The OpenAPI 3.1 document, generated from the capability declarations.
 * Paths are the spec's form (routes also answer with or without a trailing
 * slash, and aliases are not listed). Request bodies describe what HTTP
 * accepts: unknown top-level fields are ignored (named back in
 * X-Quarry-Ignored-Fields), and older SDKs' field names are listed as
 * deprecated properties. HTTP-only capabilities (no MCP tool) are named by
 * their id; a `formPost` operation is also listed as a form-encoded POST.
 */
import type { AnyCapability } from '../../core/capability.js';
import { IGNORED_FIELDS_HEADER } from './http-input.js';
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

/** Where the API is: the server that serves this document, or one named by host and port. */
export interface OpenApiServer {
  host: string;
  port: number;
}

export function buildOpenApi(
  capabilities: AnyCapability[],
  version: string,
  server: OpenApiServer = { host: '127.0.0.1', port: 8080 },
): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const cap of capabilities) {
    const path = cap.http.path.replace(/:([A-Za-z_]+)/g, '{$1}');
    const input = toJsonSchema(cap.input, 'input') as { properties?: Record<string, unknown>; required?: string[] };
    const pathParams = [...cap.http.path.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]!);
    const operation: Record<string, unknown> = {
      operationId: cap.mcpTool ?? cap.id.replace('.', '_'),
      summary: cap.title,
      description: cap.description,
      tags: [cap.id.split('.')[0]],
      security: [{ apiKey: [] }, { bearer: [] }],
      responses: {
        [String(cap.http.status ?? 200)]: {
          description: 'Success',
          headers: ignoredFieldsHeaderDoc,
          content: { 'application/json': { schema: answerSchema(cap) } },
        },
        ...(cap.http.accepted
          ? {
              '202': {
                description: 'Accepted: the job is stored; poll status_url (async_mode)',
                content: { 'application/json': { schema: toJsonSchema(cap.http.accepted.output, 'output') } },
              },
            }
          : {}),
        ...Object.fromEntries(
          [400, 401, 404, 408, 413, 429, 431, 500, 502, 503, 504].map((status) => [
            String(status),
            {
              description: Object.values(ERROR_CATALOGUE).find((e) => e.status === status)?.title ?? 'Error',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
            },
          ]),
        ),
      },
    };
    const parameters: Array<Record<string, unknown>> = pathParams.map((name) => ({
      name,
      in: 'path',
      required: true,
      schema: (input.properties?.[name] ?? { type: 'string' }) as object,
    }));
    if (cap.http.method === 'POST' && pathParams.length > 0) {
      // An action on a resource: its parameters are in the path; a body is not needed.
      const rest = Object.fromEntries(
        Object.entries(input.properties ?? {}).filter(([name]) => !pathParams.includes(name)),
      );
      const required = (input.required ?? []).filter((name) => !pathParams.includes(name));
      if (Object.keys(rest).length > 0) {
        operation.requestBody = {
          required: false,
          content: { 'application/json': { schema: httpBodySchema(cap, { ...input, properties: rest, required }) } },
        };
      }
    } else if (cap.http.method === 'POST') {
      operation.requestBody = {
        required: true,
        content: { 'application/json': { schema: httpBodySchema(cap, input) } },
      };
    } else {
      for (const [name, schema] of Object.entries(input.properties ?? {})) {
        if (pathParams.includes(name)) continue;
        parameters.push({ name, in: 'query', required: input.required?.includes(name) ?? false, schema });
      }
    }
    if (parameters.length > 0) operation.parameters = parameters;
    paths[path] = { ...(paths[path] ?? {}), [cap.http.method.toLowerCase()]: operation };
    if (cap.http.formPost) {
      // The same operation as a form post: the query parameters as form fields.
      const form = {
        type: 'object',
        properties: Object.fromEntries(parameters.filter((p) => p.in === 'query').map((p) => [p.name, p.schema])),
        required: input.required ?? [],
      };
      const { parameters: _inQuery, ...asForm } = operation;
      paths[path].post = {
        ...asForm,
        operationId: `${operation.operationId as string}_form`,
        requestBody: { required: false, content: { 'application/x-www-form-urlencoded': { schema: form } } },
      };
    }
  }
  Object.assign(paths, serviceRoutes);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Quarry API',
      version,
      description:
        'Self-hosted web search, research, monitoring and knowledge-graph service. Every operation is also ' +
        'an MCP tool (operationId = tool name), except the SearXNG-compatible ones (tag searxng), which are ' +
        'HTTP only. ' +
        'Every input field states its bound (maxLength, maxItems, maxProperties); bodies are UTF-8 JSON of ' +
        'at most the configured body limit (1 MiB by default), ' +
        'nested at most 32 levels, and the keys __proto__, constructor and prototype are refused anywhere ' +
        '(400 naming the field).',
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    servers: [
      { url: '/', description: 'The server this document was fetched from (every path is absolute: /api/v1/…)' },
      {
        url: 'http://{host}:{port}',
        description: "A Quarry installation by address (the defaults are this one's configured listen address)",
        variables: { host: { default: server.host }, port: { default: String(server.port) } },
      },
    ],
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

/** What the HTTP answer is: the output, or the one field of it the route answers with. */
function answerSchema(cap: AnyCapability): unknown {
  const schema = toJsonSchema(cap.output, 'output') as { properties?: Record<string, unknown> };
  return cap.http.answerField ? (schema.properties?.[cap.http.answerField] ?? {}) : schema;
}

const ignoredFieldsHeaderDoc = {
  [IGNORED_FIELDS_HEADER]: {
    description:
      'Top-level fields of the request that this operation does not know and ignored (URI-encoded, comma-separated)',
    schema: { type: 'string' },
  },
};

/** The body as HTTP takes it: unknown top-level fields allowed (ignored), aliases listed as deprecated. */
function httpBodySchema(
  cap: AnyCapability,
  input: Record<string, unknown> & { properties?: Record<string, unknown> },
): Record<string, unknown> {
  const { additionalProperties: _strict, ...open } = input;
  const properties = { ...(input.properties ?? {}) };
  for (const [alias, definition] of Object.entries(cap.http.fieldAliases ?? {})) {
    const target = (properties[definition.field] ?? {}) as Record<string, unknown>;
    properties[alias] = {
      ...(definition.map ? {} : target),
      description: `Another name for ${definition.field}, as older SDKs send it${definition.map ? ' (false means the same as cache_ttl 0)' : ''}`,
      deprecated: true,
    };
  }
  return { ...open, properties };
}

const healthCheckSchema = {
  type: 'object',
  required: ['status', 'response_time_ms'],
  properties: {
    status: { type: 'string', enum: ['healthy', 'unhealthy'] },
    response_time_ms: { type: 'integer' },
    detail: { type: 'string' },
    checked_at: { type: 'string' },
  },
};

/** Routes of the service itself (no key needed), beside the /api/v1 operations. */
const serviceRoutes: Record<string, Record<string, unknown>> = {
  '/health': {
    get: {
      operationId: 'health',
      summary: 'Health from real checks',
      description:
        'Checks the cache and record stores, Redis when configured, the headless browser and each configured ' +
        'language model. 200 whether healthy or degraded.',
      tags: ['service'],
      security: [],
      responses: {
        '200': {
          description: 'Health report',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['status', 'services'],
                properties: {
                  status: { type: 'string', enum: ['healthy', 'degraded'] },
                  services: { type: 'object', additionalProperties: healthCheckSchema },
                  version: { type: 'string' },
                  timestamp: { type: 'string' },
                },
              },
            },
          },
        },
      },
    },
  },
  '/healthz': {
    get: {
      operationId: 'liveness',
      summary: 'Liveness',
      tags: ['service'],
      security: [],
      responses: { '200': { description: 'The process answers' } },
    },
  },
};
