/**
 * MCP over Streamable HTTP at /mcp, for remote agents. Fastify does what it
 * does for /api/v1 before the request gets here — the API key, the rate
 * limit, the body limit and JSON parsing — and this route adds what MCP over
 * HTTP needs: an Origin check against DNS rebinding, the same message checks
 * as stdio (hosts/mcp/message-checks.ts), then the SDK's handler, which
 * answers 2026-07-28 requests and 2025 clients alike, statelessly.
 */
import { Readable } from 'node:stream';
import { createMcpHandler, type McpHttpHandler } from '@modelcontextprotocol/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { QuarryApp } from '../../app/create-quarry.js';
import { checkMessage, errorReply, INVALID_REQUEST } from '../mcp/message-checks.js';
import { StreamableMcp, type RemoteCaller } from '../mcp/streamable-server.js';
import { MODERN_REVISION } from '../mcp/revision.js';
import { listenedTaskIds } from '../mcp/task-listen.js';
import { ToolListCache } from './mcp-tool-list-cache.js';

export const MCP_PATH = '/mcp';

export function registerMcpRoute(server: FastifyInstance, app: QuarryApp): McpHttpHandler {
  const mcp = new StreamableMcp(app);
  const handler = createMcpHandler(
    (context) => {
      const who = context.authInfo?.extra as RemoteCaller | undefined;
      return mcp.serverFor(who ?? {});
    },
    {
      maxRequestBodySize: app.config.bodyLimitBytes,
      onerror: (error) => app.logger.debug({ err: error }, 'MCP request refused'),
    },
  );
  const allowedOrigins = new Set(app.config.mcp.allowedOrigins);
  const toolList = new ToolListCache();

  server.route({
    method: ['GET', 'POST', 'DELETE'],
    url: MCP_PATH,
    handler: async (request, reply) => {
      const origin = request.headers.origin;
      if (origin !== undefined && !originAllowed(origin, request, allowedOrigins)) {
        return reply
          .code(403)
          .send(
            errorReply(
              null,
              INVALID_REQUEST,
              `Forbidden: requests from origin ${origin} are not accepted (mcp.allowedOrigins)`,
            ),
          );
      }
      // The commonest request, answered from bytes kept since the first one (mcp-tool-list-cache.ts).
      const listId = toolList.requestId(request);
      const cached = listId === undefined ? undefined : toolList.answer(listId);
      if (cached) return reply.type('application/json').send(cached);
      if (request.method === 'POST') {
        const verdict = checkMessage(request.body);
        if ('reply' in verdict) return reply.code(400).send(verdict.reply);
        if ('drop' in verdict) return reply.code(202).send();
      }
      // Calls act for the key's principal, as on /api/v1 (docs/http-api.md "Keys and ownership").
      const who: RemoteCaller = {
        ...(request.principal ? { caller: request.principal } : {}),
        baseUrl: `${request.protocol}://${request.host}`,
      };
      // Task status on a listen stream (task-listen.ts): the SDK's listen router has no task subscriptions.
      const taskIds =
        request.headers['mcp-protocol-version'] === MODERN_REVISION ? listenedTaskIds(request.body) : undefined;
      if (taskIds)
        return sendWebResponse(
          reply,
          await mcp.listenToTasks((request.body as { id: string | number }).id, taskIds, who, clientGone(reply)),
        );
      const response = await handler.fetch(toWebRequest(request, reply), {
        ...(request.method === 'POST' ? { parsedBody: request.body } : {}),
        // The key itself stays here: handlers see only the caller id derived from it.
        authInfo: {
          token: '',
          clientId: who.caller?.id ?? 'anonymous',
          scopes: [],
          extra: who as unknown as Record<string, unknown>,
        },
      });
      if (listId !== undefined && response.ok) {
        const text = await response.text();
        toolList.remember(response.headers.get('content-type'), text);
        return sendWebResponse(reply, new Response(text, response));
      }
      return sendWebResponse(reply, response);
    },
  });
  server.addHook('onClose', async () => handler.close());
  return handler;
}

/** Same-origin requests pass, and origins the configuration names; a browser page anywhere else is refused. */
function originAllowed(origin: string, request: FastifyRequest, allowed: Set<string>): boolean {
  if (allowed.has(origin) || allowed.has('*')) return true;
  try {
    return new URL(origin).host === request.host;
  } catch {
    return false;
  }
}

/** The request as the SDK's web-standard handler takes it; the body is passed parsed beside it. */
function toWebRequest(request: FastifyRequest, reply: FastifyReply): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return new Request(`${request.protocol}://${request.host}${request.url}`, {
    method: request.method,
    headers,
    signal: clientGone(reply),
  });
}

/** Aborted when the client goes away before its answer is complete: it cancels what it asked for. */
function clientGone(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  return controller.signal;
}

function sendWebResponse(reply: FastifyReply, response: Response): FastifyReply {
  reply.code(response.status);
  response.headers.forEach((value, name) => {
    reply.header(name, value);
  });
  if (!response.body) return reply.send();
  return reply.send(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream));
}
