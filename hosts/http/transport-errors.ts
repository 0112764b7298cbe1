/**
 * One error path for every failure the HTTP transport meets before or
 * around a capability: fastify's own (body parsing and limits, bad URLs,
 * over-long path parameters, shutdown), Node's (oversized headers, malformed
 * framing, slow clients), wrong methods and unknown routes. Each becomes the
 * catalogue's JSON body; where the request's headers could be read, the API
 * key is checked first, so nothing but 401 reaches a caller without one.
 */
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { STATUS_CODES, type ServerOptions } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import { AppError, publicError, toAppError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { authenticatedKey, type ApiKey } from './api-keys.js';
import { registerJsonBody } from './json-body.js';
import { registerFormBody } from './form-body.js';
import { RouteMethods } from './route-methods.js';
import { routeConfigOf, type CapabilityRouteConfig } from './route-config.js';
import { redactUrlKeys } from './url-keys.js';

export interface TransportLimits {
  /** Longest wait for a request's headers. */
  headersTimeoutMs: number;
  /** Longest wait for a whole request, headers and body. */
  bodyTimeoutMs: number;
}

/** Maps fastify's own errors (body parsing, limits, URLs) onto the catalogue. */
export function fromFastifyError(error: FastifyError): AppError {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('PAYLOAD_TOO_LARGE', 'request body is larger than the configured limit');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('UNSUPPORTED_MEDIA_TYPE', 'send the body as JSON with Content-Type: application/json');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('MALFORMED_JSON', 'the body is empty but Content-Type says JSON');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new AppError('MALFORMED_JSON', `the body is not valid JSON: ${error.message}`);
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError('MALFORMED_REQUEST', 'the body does not match its Content-Length');
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new AppError('URI_TOO_LONG', 'a path parameter is longer than 100 characters');
    case 'FST_ERR_BAD_URL':
      return new AppError('MALFORMED_REQUEST', 'the URL path is not valid (a malformed percent-encoding?)');
    default:
      break;
  }
  if (error instanceof SyntaxError)
    return new AppError('MALFORMED_JSON', `the body is not valid JSON: ${error.message}`);
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500)
    return new AppError('MALFORMED_REQUEST', error.message);
  return toAppError(error);
}

export function sendError(
  reply: FastifyReply,
  error: AppError,
  errorReply?: CapabilityRouteConfig['errorReply'],
): FastifyReply {
  if (error.retryAfterSeconds !== undefined) reply.header('retry-after', String(Math.ceil(error.retryAfterSeconds)));
  if (errorReply) {
    const { status, body } = errorReply({
      code: error.code,
      message: error.message,
      details: error.details,
      status: error.status,
    });
    return reply.status(status).type('application/json').send(body);
  }
  return reply.status(error.status).type('application/json').send(error.toBody());
}

/** Node's client errors (no request object exists yet) as catalogue errors. */
export function fromClientError(error: NodeJS.ErrnoException): AppError {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return new AppError(
        'HEADERS_TOO_LARGE',
        'the request line and headers are larger than the server accepts (16 KiB)',
      );
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new AppError('REQUEST_TIMEOUT', 'the request (headers and body) did not arrive in time');
    default:
      return new AppError('MALFORMED_REQUEST', `the request is not valid HTTP/1.1 (${error.code ?? 'parse error'})`);
  }
}

/** Writes a whole HTTP response on a socket that has no ServerResponse to speak through, then closes it. */
function writeRawError(socket: Duplex, error: AppError): void {
  const body = JSON.stringify(error.toBody());
  socket.end(
    `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? 'Error'}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}

/** Fastify constructor options: transport timeouts, and the handlers for errors met before routing. */
export function transportServerOptions(
  keys: readonly ApiKey[],
  limits: TransportLimits,
  logger: Logger,
  /** The routes installTransportErrors learns: a failure before routing answers in the path's own error format. */
  routes?: RouteMethods,
): Partial<FastifyServerOptions> & { http: ServerOptions } {
  return {
    // Node measures both from the first byte; without them a client sending 1 byte/s holds a connection forever.
    requestTimeout: limits.bodyTimeoutMs,
    http: {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.bodyTimeoutMs,
      connectionsCheckingInterval: 500,
    },
    // Shutdown is answered by the onRequest hook below, in the catalogue's format.
    return503OnClosing: false,
    frameworkErrors: (error, request, reply) => {
      let appError: AppError;
      try {
        authenticatedKey(request.headers, keys);
        appError = fromFastifyError(error);
      } catch (refusal) {
        appError = toAppError(refusal);
      }
      return sendError(reply, appError, routes?.errorReplyAt(pathOf(request)));
    },
    clientErrorHandler: (error: NodeJS.ErrnoException, socket: Socket) => {
      if (error.code === 'ECONNRESET' || error.code === 'EPIPE') {
        socket.destroy();
        return;
      }
      const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
      // Never write into a response that has started: the client would read a corrupt stream.
      if (socket.writable && !inFlight?.headersSent) writeRawError(socket, fromClientError(error));
      logger.debug({ code: error.code }, 'HTTP client error');
      socket.destroy();
    },
  };
}

/**
 * The error handler, 404 / 405, the JSON body parser and shutdown answers.
 * Call before any route is added (the 405 table learns routes as they come).
 */
export function installTransportErrors(server: FastifyInstance, routes = new RouteMethods()): void {
  registerJsonBody(server);
  registerFormBody(server);

  server.addHook('onRoute', (route) =>
    routes.add(route.method, route.url, (route.config as CapabilityRouteConfig | undefined)?.errorReply),
  );

  let closing = false;
  server.addHook('preClose', async () => {
    closing = true;
  });
  // Hooks on every request are written with done rather than async: no promise per request (a throw is caught the
  // same).
  server.addHook('onRequest', (_request, _reply, done) => {
    if (closing)
      throw new AppError('OVERLOADED', 'the server is shutting down; retry shortly', { retryAfterSeconds: 1 });
    done();
  });

  server.setErrorHandler((error: FastifyError | AppError, request: FastifyRequest, reply: FastifyReply) => {
    const appError = error instanceof AppError ? error : fromFastifyError(error as FastifyError);
    const shown = publicError(appError, request.log, { url: redactUrlKeys(pathOf(request)) });
    if (shown.status >= 500 && shown.code !== 'INTERNAL')
      request.log.info({ code: shown.code, msg: shown.message }, 'request failed');
    return sendError(reply, shown, routeConfigOf(request).errorReply);
  });

  server.setNotFoundHandler((request, reply) => {
    const path = pathOf(request);
    const allowed = routes.allowedAt(path);
    if (allowed.length > 0) {
      reply.header('allow', allowed.join(', '));
      return sendError(
        reply,
        new AppError(
          'METHOD_NOT_ALLOWED',
          `${request.method} is not allowed on ${path}; allowed: ${allowed.join(', ')}`,
          { details: { allow: allowed } },
        ),
        // Routes that speak another service's wire format (Firecrawl's) answer a wrong method in it too.
        routes.errorReplyAt(path),
      );
    }
    return sendError(reply, new AppError('NOT_FOUND', `no route ${request.method} ${path}; see /api/v1/openapi.json`));
  });
}

function pathOf(request: FastifyRequest): string {
  return request.url.split('?')[0]!;
}
