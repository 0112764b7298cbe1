/**
 * How relevant a link looks for the query before following it, from what the
 * page says about it (anchor text, title attribute) and its URL's words:
 *
 *   lexical  = lexicalRelevance(query, {title: anchor text + title, snippet: URL words})
 *   semantic = calibrated cosine of the centred embeddings of the query and
 *              "anchor text + URL words" (services/ranking/calibration.ts)
 *   score    = 0.5 · lexical + 0.5 · semantic     (lexical alone without a model)
 */
import { cosine, type Embedder } from '../../../services/embeddings/types.js';
import { calibrated, embedCentred } from '../../../services/ranking/calibration.js';
import { lexicalRelevance } from '../../../services/ranking/relevance.js';

export interface LinkDescription {
  url: string;
  text: string;
}

const MAX_EMBEDDED = 2000;

export function urlWords(url: string): string {
  try {
    const parsed = new URL(url);
    return decodeURIComponent(`${parsed.pathname} ${parsed.search}`)
      .replace(/\.(html?|php|aspx?)\b/gi, ' ')
      .split(/[^\p{L}\p{N}]+/u)
      .filter((word) => word.length > 1 && !/^\d{5,}$/.test(word))
      .join(' ');
  } catch {
    return '';
  }
}

export async function scoreLinks(query: string, links: LinkDescription[], embedder: Embedder | null, signal?: AbortSignal): Promise<number[]> {
  const lexical = links.map((link) => lexicalRelevance(query, { title: link.text, snippet: urlWords(link.url) }));
  if (!embedder || links.length === 0) return lexical.map(round);
  const texts = links.slice(0, MAX_EMBEDDED).map((link) => `${link.text} ${urlWords(link.url)}`.trim() || link.url);
  const { vectors, floor } = await embedCentred(embedder, [query, ...texts], signal);
  const queryVector = vectors[0]!;
  return links.map((_, i) => {
    const vector = vectors[i + 1];
    const semantic = vector ? calibrated(cosine(queryVector, vector), floor) : 0;
    return round(0.5 * lexical[i]! + 0.5 * semantic);
  });
}

function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}
