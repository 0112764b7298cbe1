/**
 * A page as it crosses to the extraction worker: markup as text (a rendered
 * page), or a fetched body's bytes, decoded by their charset in the worker
 * that reads them. One shape for every task that reads a page.
 */
import { decodeBody } from '../../core/http/response-body.js';
import type { OutboundResponse } from '../../core/http/types.js';
import type { PageBytes, PageContent } from './types.js';

/** A fetched response's body as the worker reads it: its bytes, with the Content-Type that names their charset. */
export function bodyBytes(response: Pick<OutboundResponse, 'bytes' | 'headers'>): PageBytes {
  const type = response.headers['content-type'];
  return type === undefined ? { bytes: response.bytes } : { bytes: response.bytes, contentTypeHeader: type };
}

/** The page fields of a worker task. */
export type PageFields = { html: string } | PageBytes;

/** The fields a worker task carries for a page, and the buffer that moves with them rather than being copied. */
export function pageFields(page: PageContent): { fields: PageFields; transfer: ArrayBuffer[] | undefined } {
  if (typeof page === 'string') return { fields: { html: page }, transfer: undefined };
  const movable = movableBuffer(page.bytes);
  return { fields: page, transfer: movable ? [movable] : undefined };
}

/** The markup of a page handed over as text or as bytes (decoded by the charset of its Content-Type or <meta>). */
export function markupOf(page: PageContent | PageFields): string {
  if (typeof page === 'string') return page;
  return 'bytes' in page ? decodeBody(page.bytes, page.contentTypeHeader) : page.html;
}

/** The buffer behind bytes when they fill all of it (a pooled Buffer's slab is shared and must not move). */
export function movableBuffer(bytes: Uint8Array): ArrayBuffer | undefined {
  return bytes.buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
    ? bytes.buffer
    : undefined;
}
