/**
 * Input fields that many capabilities share, validated the same way
 * everywhere so that one field gets one error message whichever route it
 * comes through.
 */
import { z } from 'zod';

/** An absolute http(s) URL of at most 2,048 characters. */
export const httpUrlSchema = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).max(2048);

/**
 * A domain filter entry: `example.com`, also written as a URL, with `www.`,
 * a leading `*.` or a port — normalised to the bare lower-case host name.
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
    d
      .replace(/^https?:\/\//, '')
      .replace(/\/$/, '')
      .replace(/:\d+$/, '')
      .replace(/^\*\./, '')
      .replace(/^www\./, '')
      .replace(/\.$/, ''),
  );
