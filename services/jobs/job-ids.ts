/**
 * Job ids: generated (prefix + 24 hex digits), given by the caller, or
 * derived from an idempotency key. Ids are restricted to characters every
 * backend accepts (BullMQ refuses ":" and integer-like ids).
 */
import { createHash, randomBytes } from 'node:crypto';
import { AppError } from '../../core/errors.js';

const ID_PATTERN = /^[A-Za-z0-9_.-]{1,128}$/;

export function generatedJobId(prefix = 'job_'): string {
  return `${prefix}${randomBytes(12).toString('hex')}`;
}

/** The same kind and key always give the same id, so a repeated submit finds the first job. */
export function idFromIdempotencyKey(kind: string, key: string, prefix = 'job_'): string {
  return `${prefix}${createHash('sha256').update(`${kind}\n${key}`).digest('hex').slice(0, 24)}`;
}

export function assertValidJobId(id: string): void {
  if (!ID_PATTERN.test(id) || /^\d+$/.test(id)) {
    throw new AppError(
      'INVALID_INPUT',
      `jobId: "${id}" is not a valid job id (letters, digits, "_", "-" and "." only, at most 128, not only digits)`,
    );
  }
}
