/** Server-sent events, as both providers stream them: `event:` and `data:` lines, a blank line ends an event. */

export interface SseEvent {
  /** The `event:` field, when the server sent one. */
  event?: string;
  /** `data:` lines joined with newlines. */
  data: string;
}

export async function* parseSse(text: AsyncIterable<string>): AsyncIterable<SseEvent> {
  let buffer = '';
  let event: string | undefined;
  let data: string[] = [];

  const takeEvent = (): SseEvent | null => {
    const complete = data.length > 0 ? { ...(event !== undefined ? { event } : {}), data: data.join('\n') } : null;
    event = undefined;
    data = [];
    return complete;
  };

  const readLine = (line: string): SseEvent | null => {
    if (line === '') return takeEvent();
    if (line.startsWith(':')) return null; // comment / keep-alive
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
    return null;
  };

  for await (const piece of text) {
    buffer += piece;
    let newline: number;
    while ((newline = buffer.search(/\r\n|\r|\n/)) !== -1) {
      // A lone \r at the very end may be the first half of \r\n: wait for more.
      if (buffer[newline] === '\r' && newline === buffer.length - 1) break;
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + (buffer.startsWith('\r\n', newline) ? 2 : 1));
      const complete = readLine(line);
      if (complete) yield complete;
    }
  }
  if (buffer) readLine(buffer.replace(/\r$/, ''));
  const last = takeEvent();
  if (last) yield last;
}
