/** Reading a response body under a size cap, and decoding it to text. */
import iconv from 'iconv-lite';
import type { OutboundResponse } from './types.js';
import { AppError } from '../errors.js';

/** The part of a web ReadableStream used here (undici's and the DOM's types differ). */
export interface ByteStream {
  getReader(): { read(): Promise<{ done: boolean; value?: Uint8Array }>; cancel(reason?: unknown): Promise<void> };
}

/** Streams the body; cancels it and throws RESPONSE_TOO_LARGE once it passes maxBytes. */
export async function readCappedBody(body: ByteStream | null, maxBytes: number, host: string): Promise<Uint8Array> {
  if (!body) return new Uint8Array(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done || !value) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new AppError('RESPONSE_TOO_LARGE', `the response from ${host} is larger than ${maxBytes} bytes`, {
        details: { host, maxBytes },
      });
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/** Charset from Content-Type, else from an HTML <meta> in the first 2 KB, else null. */
export function detectCharset(bytes: Uint8Array, contentType: string | undefined): string | null {
  const declared = /charset\s*=\s*["']?([\w.:-]+)/i.exec(contentType ?? '')?.[1];
  if (declared) return declared;
  if (contentType && !/html|xml/i.test(contentType)) return null;
  // latin1 maps bytes 1:1, so ASCII markup reads right whatever the real encoding is.
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 2048));
  return (
    /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(head)?.[1] ??
    /<\?xml[^>]+encoding\s*=\s*["']([\w.:-]+)/i.exec(head)?.[1] ??
    null
  );
}

/** Decodes with the detected charset; unknown labels fall back to UTF-8 (a BOM always wins). */
export function decodeBody(bytes: Uint8Array, contentType: string | undefined): string {
  const charset = bomCharset(bytes) ?? detectCharset(bytes, contentType) ?? 'utf-8';
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset);
  } catch {
    decoder = new TextDecoder('utf-8');
  }
  // Labels are resolved as browsers do (iso-8859-1, ascii and latin1 all mean windows-1252), but Node 20 decodes
  // windows-1252 as ISO-8859-1, turning its quotes, dashes and € (0x80–0x9F) into control characters.
  if (decoder.encoding === 'windows-1252')
    return iconv.decode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), 'windows-1252');
  return decoder.decode(bytes);
}

function bomCharset(bytes: Uint8Array): string | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  return null;
}

/**
 * The response with its body decoded on first read, not before: an engine's
 * answer goes to the worker pool as bytes and is decoded there, so the event
 * loop never decodes a page only to copy the text to another thread.
 */
export function responseDecodedOnRead(response: Omit<OutboundResponse, 'body'>): OutboundResponse {
  let text: string | undefined;
  return Object.defineProperty({ ...response }, 'body', {
    enumerable: true,
    get: () => (text ??= decodeBody(response.bytes, response.headers['content-type'])),
  }) as OutboundResponse;
}
