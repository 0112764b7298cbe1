/** Reading a transport body as text, chunk by chunk, stopping when the call is stopped. */
import type { CallScope } from './call-scope.js';
import type { LlmHttpResponse } from './transport.js';

/** Decoded text pieces in arrival order; each wait for the next piece is raced against the scope. */
export async function* textChunks(body: LlmHttpResponse['body'], scope: CallScope): AsyncIterable<string> {
  if (typeof body === 'string') {
    if (body) yield body;
    return;
  }
  const decoder = new TextDecoder();
  const iterator = body[Symbol.asyncIterator]();
  try {
    for (;;) {
      const next = await scope.race(iterator.next());
      if (next.done) break;
      const text = decoder.decode(next.value, { stream: true });
      if (text) yield text;
    }
    const rest = decoder.decode();
    if (rest) yield rest;
  } finally {
    void iterator.return?.()?.catch?.(() => undefined);
  }
}

/** The whole body, cut at `maxChars` (error bodies are only read for their message). */
export async function readText(body: LlmHttpResponse['body'], scope: CallScope, maxChars = Infinity): Promise<string> {
  let text = '';
  for await (const piece of textChunks(body, scope)) {
    text += piece;
    if (text.length >= maxChars) return text.slice(0, maxChars);
  }
  return text;
}
