/**
 * The language-model strategy and filter. Both use the quality tier when
 * configured, else the fast one; with neither, the request is refused up
 * front (UNAVAILABLE) rather than answered with silently empty results.
 * The JSON Schema is given in the prompt and JSON mode is asked for, not the
 * provider's strict schema mode, which rejects many hand-written schemas.
 */
import { AppError } from '../../../core/errors.js';
import { parseModelJson } from '../../../services/llm/json-output.js';
import type { LlmTiers } from '../../../services/llm/registry.js';
import type { LlmClient } from '../../../services/llm/types.js';
import type { TextBlock } from '../../../services/page-analysis/text-blocks.js';
import { modelFor } from '../../../services/llm/model-choice.js';

/** Characters of page content sent to the model per request. */
export const MAX_LLM_CONTENT_CHARS = 16_000;
const MAX_FILTER_BLOCKS = 200;

export function requireLlm(tiers: LlmTiers, what: string): LlmClient {
  const client = modelFor(tiers, 'page-extraction');
  if (!client) {
    throw new AppError(
      'UNAVAILABLE',
      `${what} "llm" needs a language model, and none is configured on this installation: set llm.quality or llm.fast in the config (docs/llm.md), or choose another ${what.replace(/_/g, ' ')}`,
    );
  }
  return client;
}

export interface LlmExtractRequest {
  query: string;
  url: string;
  content: string;
  instruction?: string;
  schema?: Record<string, unknown>;
  signal?: AbortSignal;
}

export async function llmExtract(client: LlmClient, request: LlmExtractRequest): Promise<unknown> {
  const instruction = request.instruction ?? `Extract the information relevant to the query "${request.query}".`;
  const response = await client.complete({
    // The client adds the JSON-only instruction itself; only the schema is added here.
    system: `You extract structured data from the content of a web page. Use only what the content says; use null for anything it does not say.${request.schema ? ` The JSON must conform to this JSON Schema:\n${JSON.stringify(request.schema)}` : ''}`,
    messages: [
      {
        role: 'user',
        content: `Instruction: ${instruction}\nQuery: ${request.query}\nPage: ${request.url}\n\nContent:\n"""\n${request.content.slice(0, MAX_LLM_CONTENT_CHARS)}\n"""`,
      },
    ],
    json: true,
    temperature: 0,
    ...(request.signal ? { signal: request.signal } : {}),
  });
  return response.json !== undefined ? response.json : parseModelJson(response.text);
}

/** Asks the model which numbered blocks to keep; answers with the kept blocks in page order. */
export async function llmFilter(
  client: LlmClient,
  query: string,
  blocks: TextBlock[],
  instruction: string | undefined,
  signal?: AbortSignal,
): Promise<TextBlock[]> {
  const offered: TextBlock[] = [];
  let chars = 0;
  for (const block of blocks.slice(0, MAX_FILTER_BLOCKS)) {
    chars += block.text.length + 8;
    if (chars > MAX_LLM_CONTENT_CHARS) break;
    offered.push(block);
  }
  const listing = offered.map((block, i) => `[${i}] ${block.text.replace(/\s+/g, ' ')}`).join('\n');
  const response = await client.complete({
    system: `You select the blocks of a web page worth keeping. Keep the main content relevant to the request; drop navigation, ads, boilerplate and unrelated text. Answer with JSON: {"keep": [block numbers]}.`,
    messages: [
      { role: 'user', content: `Request: ${instruction ?? `content relevant to "${query}"`}\n\nBlocks:\n${listing}` },
    ],
    json: true,
    temperature: 0,
    ...(signal ? { signal } : {}),
  });
  const answer = (response.json !== undefined ? response.json : parseModelJson(response.text)) as { keep?: unknown };
  if (!answer || !Array.isArray(answer.keep))
    throw new AppError('UPSTREAM_FAILED', 'the model did not answer {"keep": [block numbers]}');
  const keep = new Set(answer.keep.filter((n): n is number => Number.isInteger(n)));
  return offered.filter((_, i) => keep.has(i));
}
