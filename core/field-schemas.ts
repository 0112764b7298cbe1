/**
 * Input fields that many capabilities share, validated the same way
 * everywhere so that one field gets one error message whichever route it
 * comes through.
 */
import { z } from 'zod';
import { bareHost } from './host-name.js';

/** An absolute http(s) URL of at most 2,048 characters. */
export const httpUrlSchema = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).max(2048);

/** An ISO 8601 date (YYYY-MM-DD) or date-time, with or without an offset. */
export const isoDateSchema = z.iso
  .datetime({ offset: true, local: true })
  .max(40)
  .or(z.iso.date().max(10))
  .describe('ISO 8601 date or date-time');

/**
 * A domain filter entry: `example.com`, also written as a URL, with `www.` (`www2.`),
 * a leading `*.` or a port — normalised to the bare host as services/web-search/hosts.ts compares hosts.
 */
export const domainFilterSchema = z
  .string()
  .max(300)
  .trim()
  .toLowerCase()
  .regex(
    /^(?:https?:\/\/)?(?:\*\.)?[a-z0-9-]+(?:\.[a-z0-9-]+)*\.?(?::\d+)?\/?$/i,
    'must be a domain name such as example.com',
  )
  .transform((d) =>
    bareHost(
      d
        .replace(/^https?:\/\//, '')
        .replace(/\/$/, '')
        .replace(/:\d+$/, '')
        .replace(/^\*\./, ''),
    ),
  );

/**
 * A JSON object of at most maxKeys keys (each at most maxKeyLength characters): the bound is checked and published in
 * the schema (maxProperties). How deep its values nest is bounded for every input by input-shape.ts.
 */
export function boundedMap<V extends z.ZodType = z.ZodUnknown>(maxKeys: number, values?: V, maxKeyLength = 100) {
  return z
    .record(z.string().max(maxKeyLength), (values ?? z.unknown()) as V)
    .refine((map) => Object.keys(map).length <= maxKeys, { message: `at most ${maxKeys} keys` })
    .meta({ maxProperties: maxKeys });
}
