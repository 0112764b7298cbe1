/**
 * The tools as every MCP transport serves them (stdio with the 1.x SDK,
 * Streamable HTTP with the 2.x one): the list built from the capability
 * declarations, and one call through registry.invoke answered as a
 * CallToolResult — structuredContent plus a markdown text block, or an error
 * result an agent can act on. Plain objects only, so neither SDK's types leak
 * into the other's server.
 */
import type { QuarryApp } from '../../app/create-quarry.js';
import type { AnyCapability, CallContext } from '../../core/capability.js';
import { ERROR_CATALOGUE, toAppError } from '../../core/errors.js';
import { toObjectRootSchema } from '../../core/json-schema.js';
import { fencedCode } from '../../services/markdown/escape.js';

export interface ToolDescription {
  name: string;
  title: string;
  description: string;
  inputSchema: { type: 'object'; [key: string]: unknown };
  outputSchema: { type: 'object'; [key: string]: unknown };
  annotations: { title: string; readOnlyHint: boolean; openWorldHint: boolean };
}

export interface ToolResult {
  content: Array<{ type: 'text'; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: true;
  _meta?: Record<string, unknown>;
  [key: string]: unknown;
}

/** What the agent should do about each kind of failure. */
function hintFor(code: string): string {
  if (code === 'INVALID_INPUT' || code === 'UNKNOWN_ENGINE' || code === 'MALFORMED_JSON')
    return 'Fix the arguments named above and call again.';
  if (code === 'UNSAFE_QUERY')
    return 'The safety screen refused the request for the reason above; rephrase it or call without check_safety.';
  if (code === 'RATE_LIMITED' || code === 'OVERLOADED') return 'Wait a little and retry.';
  if (code === 'NOT_FOUND') return 'Check the identifier.';
  if (code === 'UNAVAILABLE') return 'This installation lacks the feature; see the enhanced_features tool.';
  if (code === 'TIMEOUT') return 'Retry with a larger timeout or fewer results.';
  return 'The failure is on the server side; retrying later may help.';
}

/** A capability with an MCP tool (HTTP-only ones, such as the SearXNG-compatible search, have none). */
export type ToolCapability = AnyCapability & { mcpTool: string };

export function exposedCapabilities(app: QuarryApp): ToolCapability[] {
  const allow = app.config.mcp.tools;
  const all = app.registry.list().filter((c): c is ToolCapability => c.mcpTool !== undefined);
  if (!allow) return all;
  const unknown = allow.filter((name) => !all.some((c) => c.mcpTool === name));
  if (unknown.length > 0) app.logger.warn({ unknown }, 'mcp.tools names tools that do not exist');
  return all.filter((c) => allow.includes(c.mcpTool));
}

export function toolOf(capability: ToolCapability): ToolDescription {
  return {
    name: capability.mcpTool,
    title: capability.title,
    description: capability.description,
    inputSchema: toObjectRootSchema(capability.input, 'input') as ToolDescription['inputSchema'],
    outputSchema: toObjectRootSchema(capability.output, 'output') as ToolDescription['outputSchema'],
    annotations: { title: capability.title, readOnlyHint: capability.readOnly ?? false, openWorldHint: true },
  };
}

/** A capability's output as a tool result: the structure, and the capability's own markdown (or the JSON fenced). */
export function toolResultOf(capability: AnyCapability, output: Record<string, unknown>): ToolResult {
  const text = capability.toMarkdown
    ? capability.toMarkdown(output)
    : fencedCode(JSON.stringify(output, null, 2), 'json');
  return { content: [{ type: 'text', text }], structuredContent: output };
}

/** A failure as a tool error result: title, code, message and what to do, with the code and details in _meta. */
export function toolErrorOf(error: unknown): ToolResult {
  const appError = toAppError(error);
  const title = ERROR_CATALOGUE[appError.code].title;
  return {
    isError: true,
    content: [{ type: 'text', text: `${title} (${appError.code}): ${appError.message}\n${hintFor(appError.code)}` }],
    _meta: { code: appError.code, details: appError.details ?? null },
  };
}

/** Runs one tool through the registry; `beforeAnswer` lets the transport flush progress first. */
export async function callTool(
  app: QuarryApp,
  capability: AnyCapability,
  args: Record<string, unknown>,
  ctx: CallContext,
  beforeAnswer: () => Promise<void> = async () => undefined,
): Promise<ToolResult> {
  try {
    const output = (await app.registry.invoke(capability.id, args, ctx)) as Record<string, unknown>;
    await beforeAnswer();
    return toolResultOf(capability, output);
  } catch (error) {
    return toolErrorOf(error);
  }
}
