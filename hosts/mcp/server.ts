/**
 * The MCP host: every registered capability as a tool over stdio. It only
 * translates — tools/list from the declarations, tools/call to
 * registry.invoke — so input is validated in the core exactly as for HTTP.
 * Results carry structuredContent plus a readable markdown text block;
 * failures are error results an agent can act on.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { QuarryApp } from '../../app/create-quarry.js';
import type { AnyCapability, CallContext } from '../../core/capability.js';
import { ERROR_CATALOGUE, toAppError } from '../../core/errors.js';
import { toObjectRootSchema } from '../../core/json-schema.js';
import { packageVersion } from '../../core/paths.js';
import { LOCAL_PRINCIPAL, type Principal } from '../../core/principal.js';
import { fencedCode } from '../../services/markdown/escape.js';
import { StrictStdioTransport } from './stdio-transport.js';

/** What the agent should do about each kind of failure. */
function hintFor(code: string): string {
  if (code === 'INVALID_INPUT' || code === 'UNKNOWN_ENGINE' || code === 'MALFORMED_JSON') return 'Fix the arguments named above and call again.';
  if (code === 'UNSAFE_QUERY') return 'The safety screen refused the request for the reason above; rephrase it or call without check_safety.';
  if (code === 'RATE_LIMITED' || code === 'OVERLOADED') return 'Wait a little and retry.';
  if (code === 'NOT_FOUND') return 'Check the identifier.';
  if (code === 'UNAVAILABLE') return 'This installation lacks the feature; see the enhanced_features tool.';
  if (code === 'TIMEOUT') return 'Retry with a larger timeout or fewer results.';
  return 'The failure is on the server side; retrying later may help.';
}

export function exposedCapabilities(app: QuarryApp): AnyCapability[] {
  const allow = app.config.mcp.tools;
  const all = app.registry.list();
  if (!allow) return all;
  const unknown = allow.filter((name) => !all.some((c) => c.mcpTool === name));
  if (unknown.length > 0) app.logger.warn({ unknown }, 'mcp.tools names tools that do not exist');
  return all.filter((c) => allow.includes(c.mcpTool));
}

function toolOf(capability: AnyCapability): Tool {
  return {
    name: capability.mcpTool,
    title: capability.title,
    description: capability.description,
    inputSchema: toObjectRootSchema(capability.input, 'input') as Tool['inputSchema'],
    outputSchema: toObjectRootSchema(capability.output, 'output') as Tool['outputSchema'],
    annotations: { title: capability.title, readOnlyHint: capability.readOnly ?? false, openWorldHint: true },
  };
}

/** caller: who the calls act for; the stdio host is the machine's owner (an admin), a remote host passes the key's principal. */
export function buildMcpServer(app: QuarryApp, caller: Principal = LOCAL_PRINCIPAL): Server {
  const server = new Server({ name: 'quarry', version: packageVersion() }, { capabilities: { tools: {}, logging: {} } });
  const capabilities = exposedCapabilities(app);
  const byTool = new Map(capabilities.map((c) => [c.mcpTool, c]));

  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: capabilities.map(toolOf) }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const capability = byTool.get(request.params.name);
    // A protocol error, as the MCP specification asks for an unknown tool (not a tool result).
    if (!capability) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    const progressToken = request.params._meta?.progressToken ?? extra._meta?.progressToken;
    const notifications = new ProgressFlush();
    const ctx: CallContext = {
      signal: extra.signal,
      logger: app.logger.child({ tool: capability.mcpTool }),
      host: 'mcp',
      caller,
      progress: (update) => {
        if (progressToken === undefined) return;
        notifications.track(extra.sendNotification({ method: 'notifications/progress', params: { progressToken, ...update } }));
      },
    };
    try {
      const output = (await app.registry.invoke(capability.id, request.params.arguments ?? {}, ctx)) as Record<string, unknown>;
      await notifications.flushed();
      const text = capability.toMarkdown ? capability.toMarkdown(output) : fencedCode(JSON.stringify(output, null, 2), 'json');
      return { content: [{ type: 'text', text }], structuredContent: output };
    } catch (error) {
      const appError = toAppError(error);
      const title = ERROR_CATALOGUE[appError.code].title;
      return {
        isError: true,
        content: [{ type: 'text', text: `${title} (${appError.code}): ${appError.message}\n${hintFor(appError.code)}` }],
        _meta: { code: appError.code, details: appError.details ?? null },
      };
    }
  });
  return server;
}

/**
 * Progress notifications go out before the answer, and a little apart from
 * it: the SDK client handles a notification a microtask after reading it and
 * forgets the request's progress handler as soon as the answer is read, so a
 * notification that arrives in the same read as the answer is dropped.
 */
class ProgressFlush {
  private readonly pending = new Set<Promise<unknown>>();
  private lastSentAt = -Infinity;

  track(sending: Promise<unknown>): void {
    this.lastSentAt = performance.now();
    const settled = sending.catch(() => undefined).finally(() => this.pending.delete(settled));
    this.pending.add(settled);
  }

  async flushed(): Promise<void> {
    await Promise.all(this.pending);
    const wait = PROGRESS_GAP_MS - (performance.now() - this.lastSentAt);
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

/** Time between the last progress notification and the answer, so the two reach the client in separate reads. */
const PROGRESS_GAP_MS = 20;

export async function serveMcpOverStdio(app: QuarryApp): Promise<Server> {
  const server = buildMcpServer(app);
  // A message may carry a whole HTTP body's worth of input plus its envelope.
  const maxLineBytes = app.config.bodyLimitBytes + 64 * 1024;
  await server.connect(new StrictStdioTransport({ maxLineBytes, logger: app.logger.child({ component: 'mcp' }) }));
  return server;
}
