/**
 * One capability as HTTP routes: at its path and its aliases, the body (or
 * query and path parameters) prepared as http-input.ts says, invoked through
 * the registry with a context carrying cancellation and the caller, answered
 * with the capability's status (202 for an accepted job).
 *
 * A POST on a resource's path (`/monitor/topics/:monitor_id/pause`) takes
 * its parameters from the path and needs no body: an empty one is accepted
 * whatever Content-Type says. A capability whose spec answer is a bare array
 * declares `answerField`, and HTTP answers that field of the output.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { QuarryApp } from '../../app/create-quarry.js';
import type { AnyCapability, CallContext } from '../../core/capability.js';
import { AppError } from '../../core/errors.js';
import { findInputShapeProblem } from '../../core/input-shape.js';
import { toJsonSchema } from '../../core/json-schema.js';
import { shapeRefusal } from '../../core/registry.js';
import { declaredFields, IGNORED_FIELDS_HEADER, ignoredFieldsHeader, nameAliasesInError, prepareHttpInput } from './http-input.js';
import { queryToInput } from './query-input.js';

export function mountCapability(server: FastifyInstance, app: QuarryApp, capability: AnyCapability): void {
  const inputSchema = toJsonSchema(capability.input, 'input');
  const declared = declaredFields(capability);
  const params = (request: FastifyRequest) => (request.params ?? {}) as Record<string, unknown>;
  const onResource = capability.http.method === 'POST' && capability.http.path.includes('/:');
  for (const url of [capability.http.path, ...(capability.http.aliases ?? [])]) {
    server.route({
      method: capability.http.method,
      url,
      ...(onResource ? { onRequest: forgetTypeOfEmptyBody } : {}),
      handler: async (request, reply) => {
        const body = onResource && request.body === undefined ? {} : request.body;
        if (capability.http.method === 'POST' && (body === null || typeof body !== 'object' || Array.isArray(body))) {
          throw new AppError('INVALID_INPUT', 'the body must be a JSON object');
        }
        const raw =
          capability.http.method === 'POST'
            ? { ...(body as object), ...params(request) }
            : { ...queryToInput((request.query ?? {}) as Record<string, unknown>, inputSchema), ...params(request) };
        // Before unknown fields are dropped: a prototype key or deep nesting is refused wherever it is, by name.
        const problem = findInputShapeProblem(raw);
        if (problem) throw shapeRefusal(problem);
        const { input, ignored, aliased } = prepareHttpInput(raw as Record<string, unknown>, capability, declared);
        if (ignored.length > 0) reply.header(IGNORED_FIELDS_HEADER, ignoredFieldsHeader(ignored));
        const controller = new AbortController();
        // A client that disconnects before the answer cancels the work.
        const onClose = (): void => {
          if (!reply.raw.writableFinished) controller.abort();
        };
        reply.raw.on('close', onClose);
        const ctx: CallContext = {
          signal: controller.signal,
          logger: request.log as CallContext['logger'],
          progress: () => undefined,
          host: 'http',
          baseUrl: `${request.protocol}://${request.host}`,
          ...(request.principal ? { caller: request.principal } : {}),
        };
        try {
          const output = await app.registry.invoke(capability.id, input, ctx);
          reply.status(capability.http.accepted?.is(output) ? 202 : (capability.http.status ?? 200));
          const field = capability.http.answerField;
          return field ? (output as Record<string, unknown>)[field] : output;
        } catch (error) {
          throw error instanceof AppError ? nameAliasesInError(error, aliased) : error;
        } finally {
          reply.raw.off('close', onClose);
        }
      },
    });
  }
}

/** An empty body labelled JSON is no body at all (clients send the header on every POST). */
async function forgetTypeOfEmptyBody(request: FastifyRequest): Promise<void> {
  const headers = request.raw.headers;
  if (headers['transfer-encoding'] === undefined && (headers['content-length'] === undefined || headers['content-length'] === '0')) delete headers['content-type'];
}

