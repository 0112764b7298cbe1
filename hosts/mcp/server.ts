/**
 * The MCP host: every registered capability as a tool over stdio. It only
 * translates — tools/list from the declarations, tools/call to
 * registry.invoke — so input is validated in the core exactly as for HTTP.
 * Results carry structuredContent plus a readable markdown text block;
 * failures are error results an agent can act on.
 *
 * The app may still be loading when the server starts (quarry mcp): the
 * handshake is answered at once, and requests that need the tools wait for it.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { QuarryApp } from '../../app/create-quarry.js';
import type { CallContext } from '../../core/capability.js';
import { packageVersion } from '../../core/paths.js';
import { LOCAL_PRINCIPAL, type Principal } from '../../core/principal.js';
import { requestFailure } from './message-checks.js';
import { McpResources } from './resources.js';
import { StrictStdioTransport } from './stdio-transport.js';
import { ToolListSnapshot } from './tool-list-snapshot.js';
import { callTool, exposedCapabilities, toolOf, type ToolCapability } from './tool-calls.js';

/** The app, or how to load it: loaded on the first request that needs it. */
export type AppSource = QuarryApp | (() => Promise<QuarryApp>);

/**
 * caller: who the calls act for; the stdio host is the machine's owner (an admin).
 * snapshot: the tool list of the previous start, answered while the app loads (tool-list-snapshot.ts).
 */
export function buildMcpServer(
  source: AppSource,
  caller: Principal = LOCAL_PRINCIPAL,
  snapshot?: ToolListSnapshot,
): Server {
  const server = new Server(
    { name: 'quarry', version: packageVersion() },
    { capabilities: { tools: { listChanged: snapshot !== undefined }, resources: {}, logging: {} } },
  );
  let loadedTools: Tool[] | undefined;
  let servedSnapshot = false;
  let tools:
    | Promise<{
        app: QuarryApp;
        capabilities: ToolCapability[];
        byTool: Map<string, ToolCapability>;
        resources: McpResources;
      }>
    | undefined;
  const ready = () =>
    (tools ??= Promise.resolve(typeof source === 'function' ? source() : source).then((app) => {
      const capabilities = exposedCapabilities(app);
      loadedTools = capabilities.map(toolOf) as Tool[];
      // A client given the previous start's list hears when this one differs.
      if (snapshot?.update(loadedTools) && servedSnapshot) void server.sendToolListChanged().catch(() => undefined);
      return {
        app,
        capabilities,
        byTool: new Map(capabilities.map((c) => [c.mcpTool, c])),
        resources: new McpResources(app, capabilities),
      };
    }));
  /** A resource request's context: the caller, no progress. */
  const resourceContext = (app: QuarryApp, signal: AbortSignal): CallContext => ({
    signal,
    logger: app.logger.child({ mcp: 'resources' }),
    host: 'mcp',
    caller,
    progress: () => undefined,
  });

  server.setRequestHandler(ListToolsRequestSchema, async () => {
    if (!loadedTools && snapshot?.tools) {
      servedSnapshot = true;
      // Loading goes on after this answer, and the live list is checked against the snapshot then.
      setImmediate(() => void ready().catch(() => undefined));
      return { tools: snapshot.tools as Tool[] };
    }
    await ready();
    return { tools: loadedTools! };
  });

  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: (await ready()).resources.templates(),
  }));
  server.setRequestHandler(ListResourcesRequestSchema, async (_request, extra) => {
    const { app, resources } = await ready();
    return { resources: await resources.list(resourceContext(app, extra.signal)) };
  });
  server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
    const { app, resources } = await ready();
    try {
      return await resources.read(request.params.uri, resourceContext(app, extra.signal));
    } catch (error) {
      const failure = requestFailure(error);
      throw new McpError(failure.code, failure.message, failure.data);
    }
  });

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const { app, byTool } = await ready();
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
        notifications.track(
          extra.sendNotification({ method: 'notifications/progress', params: { progressToken, ...update } }),
        );
      },
    };
    return (await callTool(app, capability, request.params.arguments ?? {}, ctx, () =>
      notifications.flushed(),
    )) as CallToolResult;
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

/** The default body limit (app/config.ts) plus an envelope: the line limit until the configuration is loaded. */
const LINE_LIMIT_BEFORE_CONFIG = 1_048_576 + 64 * 1024;

/** When the client has sent nothing for this long, the app is loaded anyway. */
const IDLE_LOAD_MS = 1000;

/**
 * Serves MCP on stdin/stdout. With a loader, the app is loaded only after the
 * first answer has gone out (the handshake does not wait for it), or when a
 * request needs it, or after a quiet second; until then the transport has the
 * default line limit and no logging, and it takes the configured ones then.
 */
export async function serveMcpOverStdio(source: AppSource): Promise<Server> {
  let loaded: Promise<QuarryApp> | undefined;
  const transport = new StrictStdioTransport({
    maxLineBytes: LINE_LIMIT_BEFORE_CONFIG,
    logger: { debug: () => undefined },
  });
  const load = (): Promise<QuarryApp> => {
    if (loaded) return loaded;
    loaded = typeof source === 'function' ? source() : Promise.resolve(source);
    loaded.then(
      // A message may carry a whole HTTP body's worth of input plus its envelope.
      (app) =>
        transport.configure({
          maxLineBytes: app.config.bodyLimitBytes + 64 * 1024,
          logger: app.logger.child({ component: 'mcp' }),
        }),
      () => undefined,
    );
    return loaded;
  };
  // Only a host that loads the app itself has a previous start to remember.
  const server = buildMcpServer(
    load,
    LOCAL_PRINCIPAL,
    typeof source === 'function' ? ToolListSnapshot.forThisProcess() : undefined,
  );
  await server.connect(transport);
  const send = transport.send.bind(transport);
  transport.send = async (message) => {
    await send(message);
    setImmediate(load);
  };
  setTimeout(load, IDLE_LOAD_MS).unref();
  return server;
}
