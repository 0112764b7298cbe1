/**
 * The request body parser: JSON in UTF-8 only. Replaces fastify's parser so
 * that invalid UTF-8 is refused instead of read with replacement characters,
 * and a forbidden key ("__proto__", …) is named as a field rather than
 * reported as "not valid JSON". JSON.parse makes such keys plain own
 * properties, so nothing is polluted while the check runs.
 */
import { isUtf8 } from 'node:buffer';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../core/errors.js';
import { findInputShapeProblem, jsonNestsDeeperThan, MAX_INPUT_DEPTH } from '../../core/input-shape.js';
import { shapeRefusal } from '../../core/registry.js';

const UTF8_CHARSETS = new Set(['utf-8', 'utf8']);

export function parseJsonBody(body: Buffer, contentType: string | undefined): unknown {
  // Most clients send exactly this: no charset to read.
  const charset = contentType === 'application/json' ? undefined : /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType ?? '')?.[1]?.toLowerCase();
  if (charset !== undefined && !UTF8_CHARSETS.has(charset)) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', `the body must be JSON in UTF-8, not ${charset}`);
  }
  if (body.length === 0) throw new AppError('MALFORMED_JSON', 'the body is empty but Content-Type says JSON');
  if (!isUtf8(body)) throw new AppError('MALFORMED_JSON', 'the body is not valid UTF-8 (JSON bodies must be UTF-8)');
  const text = body.toString('utf8');
  // The body object itself is one level.
  if (jsonNestsDeeperThan(text, MAX_INPUT_DEPTH + 1)) throw shapeRefusal({ field: '(body)', message: `nested more than ${MAX_INPUT_DEPTH} levels deep` });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new AppError('MALFORMED_JSON', `the body is not valid JSON: ${(error as Error).message}`);
  }
  const problem = findInputShapeProblem(value);
  if (problem) throw shapeRefusal(problem);
  return value;
}

export function registerJsonBody(server: FastifyInstance): void {
  server.removeContentTypeParser('application/json');
  server.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request: FastifyRequest, body: Buffer | string, done) => {
    try {
      done(null, parseJsonBody(typeof body === 'string' ? Buffer.from(body) : body, request.headers['content-type']));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
}
