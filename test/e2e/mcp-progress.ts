/**
 * The progress notifications a server sent for one call, as an SDK client saw them.
 *
 * The v1 client runs a notification's handler a microtask after reading it,
 * and forgets the call's progress handler as soon as it reads the answer: a
 * notification read together with the answer reaches `onerror` ("unknown
 * token") instead of `onprogress` (typescript-sdk issue #2580, a race a server
 * cannot avoid; the MCP host leaves a gap before the answer to make it rare).
 * Counting those too, in the order they came, a test checks what the server
 * sent, on a loaded machine as on a quiet one.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

export interface ProgressSeen {
  progress: number;
  total?: number;
  message?: string;
}

const LATE = /^Received a progress notification for an unknown token: (.*)$/s;

export function recordProgress(client: Client): {
  onprogress: (update: ProgressSeen) => void;
  seen: ProgressSeen[];
  stop(): void;
} {
  const seen: ProgressSeen[] = [];
  const previous = client.onerror;
  client.onerror = (error) => {
    const late = LATE.exec(error.message);
    if (!late) return previous?.(error);
    const { progressToken: _token, ...update } = (
      JSON.parse(late[1]!) as { params: ProgressSeen & { progressToken: unknown } }
    ).params;
    seen.push(update);
  };
  return { onprogress: (update) => seen.push(update), seen, stop: () => (client.onerror = previous) };
}
