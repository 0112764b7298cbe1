/**
 * One capability as HTTP routes: at its path and its aliases, the body (or
 * query and path parameters) prepared as http-input.ts says, invoked through
 * the registry with a context carrying cancellation and the caller, answered
 * with the capability's status (202 for an accepted job).
 *
 * A POST on a resource's path (`/monitor/topics/:monitor_id/pause`) takes
 * its parameters from the path and needs no body: an empty one is accepted
 * whatever Content-Type says. A GET capability declaring `formPost` also
 * answers POST with a form body (or none), read like its query string; a
 * path parameter that carries a URL key (url-keys.ts) is not input. A capability whose spec answer is a bare array
 * declares `answerField`, and HTTP answers that field of the output. An
 * answer holding deep-frozen parts (a cached search) is sent as JSON bytes with
 * those parts encoded once (core/frozen-json.ts, joined by reply-bytes.ts):
 * what fastify would write.
 * A capability that never changes its input (`sharedInput`) has its JSON
 * body parsed once for the same bytes (json-body.ts) and that body prepared
 * once (prepared below), so a repeated request reaches the registry as the
 * same frozen value.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { QuarryApp } from '../../app/create-quarry.js';
import type { AnyCapability } from '../../core/capability.js';
import { AppError } from '../../core/errors.js';
import { deepFreeze, frozenJsonPieces, isDeepFrozen } from '../../core/frozen-json.js';
import { findInputShapeProblem } from '../../core/input-shape.js';
import { toJsonSchema } from '../../core/json-schema.js';
import { shapeRefusal } from '../../core/registry.js';
import { HttpCallContext } from './http-call-context.js';
import {
  declaredFields,
  IGNORED_FIELDS_HEADER,
  ignoredFieldsHeader,
  nameAliasesInError,
  prepareHttpInput,
  type HttpInput,
} from './http-input.js';
import { queryToInput } from './query-input.js';
import { joinReply } from './reply-bytes.js';
import type { CapabilityRouteConfig } from './route-config.js';
import { websocketHandler } from './websocket-route.js';

/** What fastify labels the JSON it serialises itself: the same for JSON encoded here. */
const JSON_TYPE = 'application/json; charset=utf-8';

export function mountCapability(server: FastifyInstance, app: QuarryApp, capability: AnyCapability): void {
  const inputSchema = toJsonSchema(capability.input, 'input');
  const prepare = preparer(capability);
  const { method, path, aliases, formPost, urlKeyParam } = capability.http;
  const params = (request: FastifyRequest): Record<string, unknown> => {
    const { [urlKeyParam ?? '']: _key, ...rest } = (request.params ?? {}) as Record<string, unknown>;
    return rest;
  };
  const query = (request: FastifyRequest) =>
    queryToInput((request.query ?? {}) as Record<string, unknown>, inputSchema);
  const onResource = method === 'POST' && path.includes('/:');
  // Clients label bodiless DELETEs JSON too (firecrawl-js v1); such a request carries no body to parse.
  const bodiless = method === 'DELETE';
  const config: CapabilityRouteConfig = {
    ...(urlKeyParam ? { urlKeyParam } : {}),
    ...(formPost ? { formPost } : {}),
    ...(capability.sharedInput ? { sharedBody: true } : {}),
    ...(capability.http.errorReply ? { errorReply: capability.http.errorReply } : {}),
  };
  // A GET that is also a WebSocket (mounted where @fastify/websocket is registered: server.ts) takes the same input.
  const wsHandler =
    capability.http.websocket &&
    websocketHandler(
      app,
      capability,
      (request) => prepare(checkedShape({ ...query(request), ...params(request) })).input,
    );
  for (const url of [path, ...(aliases ?? [])]) {
    server.route({
      method,
      url,
      config,
      ...(wsHandler ? { wsHandler } : {}),
      ...(onResource || bodiless ? { onRequest: forgetTypeOfEmptyBody } : {}),
      handler: async (request, reply) => {
        const body =
          method === 'POST' ? objectBody(onResource && request.body === undefined ? {} : request.body) : undefined;
        const fromPath = params(request);
        // A shared body without path parameters is the input as it is: frozen, and known to the memos by identity.
        const raw =
          method === 'POST'
            ? isDeepFrozen(body) && isEmpty(fromPath)
              ? (body as Record<string, unknown>)
              : { ...(body as object), ...fromPath }
            : { ...query(request), ...fromPath };
        // A JSON body's shape was checked as it was parsed (json-body.ts), path parameters are the router's strings,
        // and without formPost no other body reaches here: only a query (or a GET capability's form route) is checked
        // again.
        return answer(
          app,
          capability,
          prepare,
          method === 'POST' && !formPost ? raw : checkedShape(raw),
          request,
          reply,
        );
      },
    });
    if (formPost) {
      // The form's fields and the query string's, read alike (a field in both: the form's).
      server.route({
        method: 'POST',
        url,
        config,
        onRequest: forgetTypeOfEmptyBody,
        handler: async (request, reply) => {
          const form = request.body === undefined ? {} : queryToInput(objectBody(request.body), inputSchema);
          return answer(
            app,
            capability,
            prepare,
            checkedShape({ ...query(request), ...form, ...params(request) }),
            request,
            reply,
          );
        },
      });
    }
  }
}

type Preparer = (raw: Record<string, unknown>) => HttpInput;

/** Prepares raw input as http-input.ts says; a frozen raw input once, its preparation frozen too. */
function preparer(capability: AnyCapability): Preparer {
  const declared = declaredFields(capability);
  const prepared = new WeakMap<object, HttpInput>();
  return (raw) => {
    if (!isDeepFrozen(raw)) return prepareHttpInput(raw, capability, declared);
    let known = prepared.get(raw);
    if (!known) {
      known = prepareHttpInput(raw, capability, declared);
      deepFreeze(known.input);
      Object.freeze(known.ignored);
      prepared.set(raw, known);
    }
    return known;
  };
}

function isEmpty(record: Record<string, unknown>): boolean {
  for (const _ in record) return false;
  return true;
}

/** Prepares the input, invokes the capability, and sends its answer. */
async function answer(
  app: QuarryApp,
  capability: AnyCapability,
  prepare: Preparer,
  raw: Record<string, unknown>,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<unknown> {
  const { input, ignored, aliased } = prepare(raw);
  if (ignored.length > 0) reply.header(IGNORED_FIELDS_HEADER, ignoredFieldsHeader(ignored));
  const ctx = new HttpCallContext(request, reply.raw, app.config.http.publicUrl);
  try {
    const output = await app.registry.invoke(capability.id, input, ctx);
    reply.status(capability.http.accepted?.is(output) ? 202 : (capability.http.status ?? 200));
    const field = capability.http.answerField;
    if (field) return (output as Record<string, unknown>)[field];
    // A cached answer's frozen parts are sent as the JSON they were encoded to once.
    const pieces = output !== null && typeof output === 'object' ? frozenJsonPieces(output) : undefined;
    if (pieces === undefined) return output;
    reply.type(JSON_TYPE);
    return joinReply(pieces);
  } catch (error) {
    throw error instanceof AppError ? nameAliasesInError(error, aliased) : error;
  } finally {
    ctx.release();
  }
}

/** A body as the object every input is: any other JSON value (null, a list, a number) is a 400 on every route. */
function objectBody(body: unknown): Record<string, unknown> {
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw new AppError('INVALID_INPUT', 'the body must be a JSON object');
  return body as Record<string, unknown>;
}

/**
 * Before unknown fields are dropped: a prototype key or deep nesting in a query or form is refused wherever it is, by
 * name.
 */
function checkedShape(raw: Record<string, unknown>): Record<string, unknown> {
  const problem = findInputShapeProblem(raw);
  if (problem) throw shapeRefusal(problem);
  return raw;
}

/** An empty body labelled JSON is no body at all (clients send the header on every POST). */
async function forgetTypeOfEmptyBody(request: FastifyRequest): Promise<void> {
  const headers = request.raw.headers;
  if (
    headers['transfer-encoding'] === undefined &&
    (headers['content-length'] === undefined || headers['content-length'] === '0')
  )
    delete headers['content-type'];
}
