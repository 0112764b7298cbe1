/**
 * The images of an agent search: the default image engine's results for the
 * query, then the main-content images of the pages returned, merged by
 * normalised URL. Descriptions come from the image's title (engines) or alt
 * text and caption (pages); with an LLM configured, the fast tier rewrites them
 * into one plain sentence each from the same text (it never sees the pixels).
 */
import type { Logger } from '../../core/logger.js';
import { parseModelJson } from '../../services/llm/json-output.js';
import type { LlmClient } from '../../services/llm/types.js';
import type { PageImage } from '../../services/extract/types.js';
import { normalizeUrl } from '../../services/web-search/url-normalize.js';

export const MAX_IMAGES = 10;

export interface DescribedImage {
  url: string;
  description: string | null;
}

export function mergeImages(lists: PageImage[][], limit = MAX_IMAGES): DescribedImage[] {
  const byKey = new Map<string, DescribedImage>();
  for (const list of lists) {
    for (const image of list) {
      const key = normalizeUrl(image.url);
      const found = byKey.get(key);
      if (!found) byKey.set(key, { url: image.url, description: image.description });
      else if (!found.description && image.description) found.description = image.description;
    }
  }
  return [...byKey.values()].slice(0, limit);
}

/** One fast-tier call for all images; on any failure the descriptions stay as they are. */
export async function describeWithModel(
  client: LlmClient,
  query: string,
  images: DescribedImage[],
  options: { signal?: AbortSignal; logger?: Pick<Logger, 'warn'> },
): Promise<DescribedImage[]> {
  const listed = images.map((image, i) => `[${i}] ${image.url}\n    text: ${image.description ?? '(none)'}`).join('\n');
  try {
    const response = await client.complete({
      system:
        'You write one short plain sentence describing each image, for someone searching the web, using only ' +
        'the text given with it (alt text, caption or title) and the query. If the text says nothing, answer ' +
        'null for that image. Answer with JSON: {"descriptions": [string or null, ...]} in the order given.',
      messages: [{ role: 'user', content: `Query: ${query}\n\nImages:\n${listed}` }],
      json: true,
      temperature: 0,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const answer = (response.json ?? parseModelJson(response.text)) as { descriptions?: unknown };
    if (!Array.isArray(answer?.descriptions)) throw new Error('the model did not answer {"descriptions": [...]}');
    const descriptions = answer.descriptions;
    return images.map((image, i) => {
      const written = descriptions[i];
      return typeof written === 'string' && written.trim()
        ? { url: image.url, description: written.trim().slice(0, 300) }
        : image;
    });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    options.logger?.warn({ err: error }, "image descriptions: keeping the pages' own text");
    return images;
  }
}
