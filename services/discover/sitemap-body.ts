/**
 * A fetched sitemap's bytes as the worker reads them: .xml.gz and gzip-typed
 * bodies gunzipped (off the event loop, in zlib's threads), the charset left
 * to decode in the worker with the parse: a sitemap may unpack to 50 MB.
 */
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { AppError } from '../../core/errors.js';
import type { OutboundResponse } from '../../core/http/types.js';
import { bodyBytes } from '../extract/page-content.js';
import type { PageBytes } from '../extract/types.js';

const gunzipAsync = promisify(gunzip);
/** The sitemaps.org limit for one uncompressed sitemap. */
export const MAX_SITEMAP_BYTES = 50 * 1024 * 1024;

export async function sitemapBytes(response: OutboundResponse): Promise<PageBytes> {
  // Content-Encoding: gzip is already undone by the HTTP layer; a .gz file or a
  // gzip content type still arrives compressed. The magic bytes decide.
  if (!isGzip(response.bytes)) return bodyBytes(response);
  let bytes: Buffer;
  try {
    bytes = await gunzipAsync(response.bytes, { maxOutputLength: MAX_SITEMAP_BYTES });
  } catch (error) {
    if (error instanceof RangeError || (error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
      throw new AppError(
        'RESPONSE_TOO_LARGE',
        `gzipped sitemap ${response.url} unpacks to more than ${MAX_SITEMAP_BYTES} bytes`,
        { cause: error },
      );
    }
    throw new AppError('UPSTREAM_FAILED', `gzipped sitemap ${response.url} cannot be unpacked`, { cause: error });
  }
  return { bytes, contentTypeHeader: 'application/xml' };
}

function isGzip(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}
