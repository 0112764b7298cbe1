/**
 * MCP resources: read-only context an agent attaches — a corpus with its
 * documents, a monitor's latest results, an entity of the graph — declared on
 * the capabilities that read them (`mcpResource`, core/capability.ts).
 * Reading a resource is calling its capability with the URI's variables, so
 * the capability's checks (input, ownership) hold exactly as for the tool;
 * listing calls the declared listing capability as the same caller, so a key
 * sees only its own. Transport-neutral: plain objects in and out.
 */
import type { QuarryApp } from '../../app/create-quarry.js';
import type { AnyCapability, CallContext, McpResource } from '../../core/capability.js';
import { AppError, toAppError } from '../../core/errors.js';
import { toolResultOf } from './tool-calls.js';

type ResourceCapability = AnyCapability & { mcpResource: McpResource };

export interface ResourceTemplate {
  uriTemplate: string;
  name: string;
  title: string;
  description: string;
  mimeType: string;
  [key: string]: unknown;
}

export interface ListedResource {
  uri: string;
  name: string;
  title?: string;
  mimeType: string;
  [key: string]: unknown;
}

export interface ResourceContents {
  contents: Array<{ uri: string; mimeType: string; text: string }>;
  [key: string]: unknown;
}

const MARKDOWN = 'text/markdown';
const JSON_TYPE = 'application/json';

interface Declared {
  capability: ResourceCapability;
  pattern: RegExp;
  variables: string[];
}

export class McpResources {
  private readonly declared: Declared[];

  constructor(
    private readonly app: QuarryApp,
    capabilities: readonly AnyCapability[],
  ) {
    this.declared = capabilities
      .filter((c): c is ResourceCapability => c.mcpResource !== undefined)
      .map((capability) => ({ capability, ...templatePattern(capability.mcpResource.uriTemplate) }));
  }

  /** Whether this installation serves any resource (the capability is declared only then). */
  any(): boolean {
    return this.declared.length > 0;
  }

  templates(): ResourceTemplate[] {
    return this.declared.map(({ capability: { mcpResource: r } }) => ({
      uriTemplate: r.uriTemplate,
      name: r.name,
      title: r.title,
      description: r.description,
      mimeType: MARKDOWN,
    }));
  }

  /**
   * The caller's concrete resources, from each template's listing capability; one that fails is left out, not the whole
   * list.
   */
  async list(ctx: CallContext): Promise<ListedResource[]> {
    const listed = await Promise.all(
      this.declared.map(async ({ capability: { mcpResource: r } }) => {
        if (!r.list) return [];
        try {
          const output = await this.app.registry.invoke(r.list.capability, {}, ctx);
          return r.list.items(output).map((item) => ({
            uri: expand(r.uriTemplate, item.variables),
            name: item.name,
            ...(item.title ? { title: item.title } : {}),
            mimeType: MARKDOWN,
          }));
        } catch (error) {
          ctx.logger.warn({ err: toAppError(error), capability: r.list.capability }, 'MCP resources: a listing failed');
          return [];
        }
      }),
    );
    return listed.flat();
  }

  /**
   * The resource as markdown (what an agent reads) and as JSON (the capability's output, as its tool's structured
   * content).
   */
  async read(uri: string, ctx: CallContext): Promise<ResourceContents> {
    for (const { capability, pattern, variables } of this.declared) {
      const match = pattern.exec(uri);
      if (!match) continue;
      const input = Object.fromEntries(variables.map((name, i) => [name, decoded(match[i + 1]!, uri)]));
      const output = (await this.app.registry.invoke(capability.id, input, ctx)) as Record<string, unknown>;
      const markdown = toolResultOf(capability, output).content[0]!.text;
      return {
        contents: [
          { uri, mimeType: MARKDOWN, text: markdown },
          { uri, mimeType: JSON_TYPE, text: JSON.stringify(output) },
        ],
      };
    }
    throw new AppError(
      'NOT_FOUND',
      `no resource ${uri}: Quarry serves ${this.declared.map((d) => d.capability.mcpResource.uriTemplate).join(', ')}`,
    );
  }
}

/** A simple template ("quarry://corpora/{corpus_id}") as a pattern matching one path segment per variable. */
function templatePattern(template: string): { pattern: RegExp; variables: string[] } {
  const variables: string[] = [];
  const source = template
    .split(/(\{[a-z_]+\})/)
    .map((part) => {
      const variable = /^\{([a-z_]+)\}$/.exec(part);
      if (!variable) return part.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
      variables.push(variable[1]!);
      return '([^/?#]+)';
    })
    .join('');
  return { pattern: new RegExp(`^${source}$`), variables };
}

function decoded(segment: string, uri: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new AppError('INVALID_INPUT', `malformed percent-encoding in ${uri}`);
  }
}

function expand(template: string, variables: Record<string, string>): string {
  return template.replace(/\{([a-z_]+)\}/g, (_, name: string) => encodeURIComponent(variables[name] ?? ''));
}
