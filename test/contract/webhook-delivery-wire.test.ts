/**
 * The two wire forms of a delivery's state built from the one definition stay
 * what they were (JSON Schema as the OpenAPI document and MCP tool list give it):
 * the search job status with each detail absent while not known, a monitor's
 * delivery log with each detail null and its own result_id and created_at.
 */
import { describe, expect, it } from 'vitest';
import { toJsonSchema } from '../../core/json-schema.js';
import { monitorSchema } from '../../plugins/monitor/schemas.js';
import { jobStatusOutputSchema } from '../../services/web-search/schemas.js';

const STATUS = { type: 'string', enum: ['pending', 'delivered', 'failed'] };
const INT = { type: 'integer', minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER };
const properties = (schema: unknown) => (schema as { properties: Record<string, unknown> }).properties;

describe('webhook delivery wire forms', () => {
  it('search job status: status and attempts, the details optional', () => {
    const webhook = properties(toJsonSchema(jobStatusOutputSchema, 'output')).webhook;
    expect(JSON.stringify(webhook)).toBe(
      JSON.stringify({
        type: 'object',
        properties: {
          status: STATUS,
          attempts: INT,
          webhook_id: { type: 'string' },
          last_error: { type: 'string' },
          delivered_at: { type: 'string' },
          next_attempt_at: { type: 'string' },
        },
        required: ['status', 'attempts'],
        additionalProperties: false,
      }),
    );
  });

  it('monitor delivery log: every field present, the details nullable', () => {
    const deliveries = properties(toJsonSchema(monitorSchema, 'output')).deliveries as { items: unknown };
    const nullable = { type: ['string', 'null'] };
    const fields = {
      webhook_id: { type: 'string' },
      result_id: { type: 'string' },
      status: STATUS,
      attempts: INT,
      last_error: nullable,
      next_attempt_at: nullable,
      delivered_at: nullable,
      created_at: { type: 'string' },
    };
    expect(JSON.stringify(deliveries.items)).toBe(
      JSON.stringify({
        type: 'object',
        properties: fields,
        required: Object.keys(fields),
        additionalProperties: false,
      }),
    );
  });
});
