import { describe, expect, it } from 'vitest';
import { parseSse, type SseEvent } from './sse.js';

async function eventsOf(pieces: string[]): Promise<SseEvent[]> {
  async function* source(): AsyncIterable<string> {
    yield* pieces;
  }
  const events: SseEvent[] = [];
  for await (const event of parseSse(source())) events.push(event);
  return events;
}

describe('parseSse', () => {
  it('reassembles events split across chunks, with any line ending', async () => {
    const text =
      'event: a\r\ndata: {"x":1}\r\n\r\n: comment\n\ndata:no-space\n\ndata: one\ndata: two\r\rdata: [DONE]\n\n';
    const expected = [{ event: 'a', data: '{"x":1}' }, { data: 'no-space' }, { data: 'one\ntwo' }, { data: '[DONE]' }];
    expect(await eventsOf([text])).toEqual(expected);
    // Every split point, including between \r and \n.
    for (let cut = 1; cut < text.length; cut++) {
      expect(await eventsOf([text.slice(0, cut), text.slice(cut)])).toEqual(expected);
    }
  });

  it('keeps a last event that has no blank line after it', async () => {
    expect(await eventsOf(['data: tail'])).toEqual([{ data: 'tail' }]);
  });

  it('ignores events without data', async () => {
    expect(await eventsOf(['event: ping\n\n', 'retry: 10\n\n'])).toEqual([]);
  });
});
