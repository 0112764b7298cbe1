/**
 * How relevant a link looks for the query before following it, from what the
 * page says about it (anchor text, title attribute) and its URL's words:
 *
 *   lexical  = the lexical profile of services/ranking/scorers.ts, the anchor
 *              text (and title) as title and the URL words as text
 *   semantic = the embedding profile (calibrated cosine of centred vectors) of
 *              "anchor text + URL words"
 *   score    = 0.5 · lexical + 0.5 · semantic     (lexical alone without a model)
 */
import type { Embedder } from '../../../services/embeddings/types.js';
import { passageScorer } from '../../../services/ranking/scorers.js';
import { urlWords } from '../../../services/ranking/url-words.js';
import { roundScore as round } from '../../../core/rounding.js';

export interface LinkDescription {
  url: string;
  text: string;
}

const MAX_EMBEDDED = 2000;

export async function scoreLinks(
  query: string,
  links: LinkDescription[],
  embedder: Embedder | null,
  signal?: AbortSignal,
): Promise<number[]> {
  const lexical = await passageScorer('lexical').score(
    query,
    links.map((link) => ({ title: link.text, text: urlWords(link.url) })),
  );
  if (!embedder || links.length === 0) return lexical.map(round);
  const described = links
    .slice(0, MAX_EMBEDDED)
    .map((link) => ({ text: `${link.text} ${urlWords(link.url)}`.trim() || link.url }));
  const semantic = await passageScorer('embedding', embedder).score(query, described, signal);
  return links.map((_, i) => round(0.5 * lexical[i]! + 0.5 * (semantic[i] ?? 0)));
}
