/**
 * The MCP server for remote clients (Streamable HTTP, SDK 2.x): the same
 * tools as stdio from the same declarations (tool-calls.ts), built fresh for
 * each HTTP request — nothing lives between requests, so any instance answers
 * any request. Serves the 2026-07-28 revision (per-request envelope, no
 * handshake) and, through the SDK's stateless fallback, 2025 clients.
 *
 * Beyond stdio: tools/list carries a cache hint (it changes only with the
 * configuration), and long tools run as tasks for clients that opt in
 * (tool-tasks.ts), whose status changes a client may hear on a listen stream
 * (task-listen.ts).
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type CallToolResult,
  type ServerContext,
  type Tool,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { QuarryApp } from '../../app/create-quarry.js';
import type { CallContext } from '../../core/capability.js';
import { requestFailure } from './message-checks.js';
import { packageVersion } from '../../core/paths.js';
import type { Principal } from '../../core/principal.js';
import { callTool, exposedCapabilities, toolOf, type ToolCapability } from './tool-calls.js';
import { McpResources } from './resources.js';
import { TaskListen } from './task-listen.js';
import { optsInToTasks, TASKS_EXTENSION, ToolTasks } from './tool-tasks.js';

/** How long a client may reuse a tool list: the list changes only when the configuration does (a restart). */
const TOOL_LIST_TTL_MS = 5 * 60_000;

/** Who is calling and where the host is reachable, as the HTTP route found them. */
export interface RemoteCaller {
  caller?: Principal;
  baseUrl?: string;
}

const taskIdParams = z.looseObject({ taskId: z.string().min(1).max(200) });

/** What every request's server shares: the tool list is built once, not per request. */
export class StreamableMcp {
  private readonly capabilities: ToolCapability[];
  private readonly byTool: Map<string, ToolCapability>;
  private readonly tools: Tool[];
  readonly tasks: ToolTasks;
  private readonly taskListen: TaskListen;
  private readonly resources: McpResources;

  constructor(private readonly app: QuarryApp) {
    this.capabilities = exposedCapabilities(app);
    this.byTool = new Map(this.capabilities.map((c) => [c.mcpTool, c]));
    this.tools = this.capabilities.map(toolOf) as Tool[];
    this.tasks = new ToolTasks(app, app.services.jobs, this.capabilities);
    this.taskListen = new TaskListen(this.tasks, app.services.jobs);
    this.resources = new McpResources(app, this.capabilities);
  }

  /** A server for one request. */
  serverFor(who: RemoteCaller): Server {
    const server = new Server(
      { name: 'quarry', version: packageVersion() },
      {
        capabilities: {
          tools: { listChanged: false },
          ...(this.resources.any() ? { resources: {} } : {}),
          extensions: { [TASKS_EXTENSION]: {} },
        },
        // The list is the same for every caller and changes only with the configuration.
        cacheHints: { 'tools/list': { ttlMs: TOOL_LIST_TTL_MS, cacheScope: 'public' } },
      },
    );
    server.setRequestHandler('tools/list', async () => ({ tools: this.tools }));
    server.setRequestHandler('tools/call', async (request, ctx) =>
      this.call(request.params.name, request.params.arguments ?? {}, who, ctx),
    );
    server.setRequestHandler('tasks/get', { params: taskIdParams }, async (params, ctx) =>
      protocolAnswer(() => this.tasks.get(params.taskId, this.context(who, ctx, 'tasks/get'))),
    );
    server.setRequestHandler('tasks/cancel', { params: taskIdParams }, async (params, ctx) =>
      protocolAnswer(() => this.tasks.cancel(params.taskId, this.context(who, ctx, 'tasks/cancel'))),
    );
    if (this.resources.any()) {
      server.setRequestHandler('resources/templates/list', async () => ({
        resourceTemplates: this.resources.templates(),
      }));
      server.setRequestHandler('resources/list', async (_request, ctx) => ({
        resources: await this.resources.list(this.context(who, ctx, 'resources/list')),
      }));
      server.setRequestHandler('resources/read', async (request, ctx) =>
        protocolAnswer(() => this.resources.read(request.params.uri, this.context(who, ctx, 'resources/read'))),
      );
    }
    return server;
  }

  /** A subscriptions/listen stream reporting these tasks' status to the caller, until they end or `signal` aborts. */
  listenToTasks(
    subscriptionId: string | number,
    taskIds: string[],
    who: RemoteCaller,
    signal: AbortSignal,
  ): Promise<Response> {
    return this.taskListen.open(subscriptionId, taskIds, {
      signal,
      logger: this.app.logger.child({ mcp: 'subscriptions/listen' }),
      host: 'mcp',
      ...(who.caller ? { caller: who.caller } : {}),
      ...(who.baseUrl ? { baseUrl: who.baseUrl } : {}),
      progress: () => undefined,
    });
  }

  private async call(
    name: string,
    args: Record<string, unknown>,
    who: RemoteCaller,
    ctx: ServerContext,
  ): Promise<CallToolResult> {
    const capability = this.byTool.get(name);
    // A protocol error, as on stdio and as the MCP specification asks for an unknown tool.
    if (!capability) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${name}`);
    const callContext = this.context(who, ctx, name);
    if (this.tasks.canRun(name) && optsInToTasks(clientCapabilities(ctx))) {
      const started = await this.tasks.start(name, args, callContext);
      // A task handle stands in for the result (SEP-2663: resultType "task").
      if ('task' in started) return { resultType: 'task', ...started.task } as unknown as CallToolResult;
      return started.result as CallToolResult;
    }
    return (await callTool(this.app, capability, args, callContext)) as CallToolResult;
  }

  private context(who: RemoteCaller, ctx: ServerContext, what: string): CallContext {
    const progressToken = ctx.mcpReq._meta?.progressToken;
    return {
      signal: ctx.mcpReq.signal,
      logger: this.app.logger.child({ mcp: what }),
      host: 'mcp',
      ...(who.caller ? { caller: who.caller } : {}),
      ...(who.baseUrl ? { baseUrl: who.baseUrl } : {}),
      progress: (update) => {
        if (progressToken === undefined) return;
        void ctx.mcpReq
          .notify({ method: 'notifications/progress', params: { progressToken, ...update } })
          .catch(() => undefined);
      },
    };
  }
}

/** A task or resource request's failure as its JSON-RPC error (message-checks.ts). */
async function protocolAnswer<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    const failure = requestFailure(error);
    throw new ProtocolError(failure.code, failure.message, failure.data);
  }
}

/** The client's capabilities: on 2026-07-28 in each request's envelope (the SDK lifts it out of _meta). */
function clientCapabilities(ctx: ServerContext): unknown {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  return envelope?.[CLIENT_CAPABILITIES_META_KEY] ?? ctx.mcpReq._meta?.[CLIENT_CAPABILITIES_META_KEY];
}
