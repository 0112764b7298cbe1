/**
 * The MCP host: every registered capability as a tool over stdio. It only
 * translates — tools/list from the declarations, tools/call to
 * registry.invoke — so input is validated in the core exactly as for HTTP.
 * Results carry structuredContent plus a readable markdown text block;
 * failures are error results an agent can act on.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { QuarryApp } from '../../app/create-quarry.js';
import type { CallContext } from '../../core/capability.js';
import { packageVersion } from '../../core/paths.js';
import { StrictStdioTransport } from './stdio-transport.js';
import { callTool, exposedCapabilities, toolOf } from './tool-calls.js';

export function buildMcpServer(app: QuarryApp): Server {
  const server = new Server({ name: 'quarry', version: packageVersion() }, { capabilities: { tools: {}, logging: {} } });
  const capabilities = exposedCapabilities(app);
  const byTool = new Map(capabilities.map((c) => [c.mcpTool, c]));

  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: capabilities.map(toolOf) as Tool[] }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const capability = byTool.get(request.params.name);
    if (!capability) {
      return {
        isError: true,
        content: [{ type: 'text', text: `Unknown tool "${request.params.name}". Available: ${[...byTool.keys()].join(', ')}` }],
      };
    }
    const progressToken = request.params._meta?.progressToken ?? extra._meta?.progressToken;
    const notifications = new ProgressFlush();
    const ctx: CallContext = {
      signal: extra.signal,
      logger: app.logger.child({ tool: capability.mcpTool }),
      host: 'mcp',
      // One local client per process: its searches form one history.
      caller: 'mcp',
      progress: (update) => {
        if (progressToken === undefined) return;
        notifications.track(extra.sendNotification({ method: 'notifications/progress', params: { progressToken, ...update } }));
      },
    };
    return (await callTool(app, capability, request.params.arguments ?? {}, ctx, () => notifications.flushed())) as CallToolResult;
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
