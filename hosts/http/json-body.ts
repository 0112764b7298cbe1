/**
 * The request body parser: JSON in UTF-8 only. Replaces fastify's parser so
 * that invalid UTF-8 is refused instead of read with replacement characters,
 * and a forbidden key ("__proto__", …) is named as a field rather than
 * reported as "not valid JSON". JSON.parse makes such keys plain own
 * properties, so nothing is polluted while the check runs.
 *
 * On the routes of capabilities that never change their input (route config
 * `sharedBody`), a body is parsed once: the same bytes again get the same
 * deep-frozen value (a client repeating a cached search sends the same
 * body every time), which the input memo then knows by identity.
 */
import { isUtf8 } from 'node:buffer';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../core/errors.js';
import { findInputShapeProblem, jsonNestsDeeperThan, MAX_INPUT_DEPTH } from '../../core/input-shape.js';
import { deepFreeze } from '../../core/frozen-json.js';
import { shapeRefusal } from '../../core/registry.js';
import { routeConfigOf } from './route-config.js';

const UTF8_CHARSETS = new Set(['utf-8', 'utf8']);

/** Bodies parsed once, by their bytes: bounded in count and in each body's size. */
const SHARED_BODIES = 256;
const MAX_SHARED_BODY_BYTES = 4096;

export function parseJsonBody(body: Buffer, contentType: string | undefined): unknown {
  assertUtf8Json(contentType);
  return parseBytes(body);
}

/** The body's value, deep-frozen and shared by every request that sends the same bytes. */
export class SharedJsonBodies {
  private readonly values = new Map<string, unknown>();

  parse(body: Buffer, contentType: string | undefined): unknown {
    assertUtf8Json(contentType);
    if (body.length > MAX_SHARED_BODY_BYTES) return parseBytes(body);
    // Latin-1 maps bytes to characters one to one: the key is the bytes, whatever their encoding.
    const key = body.toString('latin1');
    const known = this.values.get(key);
    if (known !== undefined) return known;
    const value = parseBytes(body);
    deepFreeze(value);
    if (this.values.size >= SHARED_BODIES) this.values.delete(this.values.keys().next().value!);
    this.values.set(key, value);
    return value;
  }
}

function assertUtf8Json(contentType: string | undefined): void {
  // Most clients send exactly this: no charset to read.
  const charset =
    contentType === 'application/json'
      ? undefined
      : /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType ?? '')?.[1]?.toLowerCase();
  if (charset !== undefined && !UTF8_CHARSETS.has(charset)) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', `the body must be JSON in UTF-8, not ${charset}`);
  }
}

function parseBytes(body: Buffer): unknown {
  if (body.length === 0) throw new AppError('MALFORMED_JSON', 'the body is empty but Content-Type says JSON');
  if (!isUtf8(body)) throw new AppError('MALFORMED_JSON', 'the body is not valid UTF-8 (JSON bodies must be UTF-8)');
  const text = body.toString('utf8');
  // The body object itself is one level.
  if (jsonNestsDeeperThan(text, MAX_INPUT_DEPTH + 1))
    throw shapeRefusal({ field: '(body)', message: `nested more than ${MAX_INPUT_DEPTH} levels deep` });
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
  const shared = new SharedJsonBodies();
  server.removeContentTypeParser('application/json');
  server.addContentTypeParser(
    'application/json',
    { parseAs: 'buffer' },
    (request: FastifyRequest, body: Buffer | string, done) => {
      try {
        const bytes = typeof body === 'string' ? Buffer.from(body) : body;
        const contentType = request.headers['content-type'];
        done(
          null,
          routeConfigOf(request).sharedBody ? shared.parse(bytes, contentType) : parseJsonBody(bytes, contentType),
        );
      } catch (error) {
        done(error as Error, undefined);
      }
    },
  );
}
