/**
 * The single seam through which model requests leave the process. The default
 * runs on global fetch; the composition root can pass one that goes through
 * the outbound policy instead (a whole-body string answer is fine, streaming
 * then arrives in one piece).
 */

export interface LlmHttpRequest {
  url: string;
  method: 'POST';
  headers: Record<string, string>;
  body: string;
  signal: AbortSignal;
}

export interface LlmHttpResponse {
  status: number;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  /** The body as it arrives (for streaming), or whole. */
  body: AsyncIterable<Uint8Array> | string;
}

export type LlmTransport = (request: LlmHttpRequest) => Promise<LlmHttpResponse>;

export function fetchTransport(fetchImpl: typeof fetch = globalThis.fetch): LlmTransport {
  return async (request) => {
    const response = await fetchImpl(request.url, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      signal: request.signal,
    });
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      headers[name.toLowerCase()] = value;
    });
    return { status: response.status, headers, body: response.body ? readableChunks(response.body) : '' };
  };
}

/** DOM typings do not declare ReadableStream as async-iterable, so read it by hand. */
async function* readableChunks(stream: ReadableStream<Uint8Array>): AsyncIterable<Uint8Array> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      if (value) yield value;
    }
  } finally {
    // Stops the download when the consumer leaves early.
    reader.cancel().catch(() => undefined);
  }
}
