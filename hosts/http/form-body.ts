/**
 * Form-encoded bodies (application/x-www-form-urlencoded), accepted only on
 * routes that declare `formPost` (services built for HTML forms, such as
 * SearXNG, take their parameters this way); every other route refuses them
 * as before, with 415. Fields become a plain record of text like a query
 * string (a repeated field, a list), typed later by the capability's schema.
 */
import { isUtf8 } from 'node:buffer';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../core/errors.js';
import { routeConfigOf } from './route-config.js';

export function parseFormBody(body: Buffer): Record<string, string | string[]> {
  if (!isUtf8(body)) throw new AppError('MALFORMED_REQUEST', 'the form body is not valid UTF-8');
  // No prototype: a "__proto__" field stays an ordinary key, which validation then refuses by name.
  const fields = Object.create(null) as Record<string, string | string[]>;
  for (const [name, value] of new URLSearchParams(body.toString('utf8'))) {
    const before = fields[name];
    fields[name] = before === undefined ? value : Array.isArray(before) ? [...before, value] : [before, value];
  }
  return fields;
}

export function registerFormBody(server: FastifyInstance): void {
  server.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'buffer' },
    (request: FastifyRequest, body: Buffer | string, done) => {
      if (!routeConfigOf(request).formPost) {
        done(
          new AppError('UNSUPPORTED_MEDIA_TYPE', 'send the body as JSON with Content-Type: application/json'),
          undefined,
        );
        return;
      }
      try {
        done(null, parseFormBody(typeof body === 'string' ? Buffer.from(body) : body));
      } catch (error) {
        done(error as Error, undefined);
      }
    },
  );
}
