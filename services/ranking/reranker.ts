/**
 * A configured cross-encoder reordering the best passages: the offline score
 * picks the top k, the model scores each (query, passage) pair and the k
 * passages take the same k scores in the model's order, so scores keep their
 * scale and only the order among the best changes. Implemented by
 * services/models, passed in by the caller.
 */
export interface PassageReranker {
  /** The model's hub id or folder name, reported in model_used. */
  readonly id: string;
  /** How many of the best passages it reorders. */
  readonly topK: number;
  /**
   * One relevance score per passage (higher is more relevant), in order; null when the model failed (the offline order
   * stands).
   */
  score(query: string, passages: string[], signal?: AbortSignal): Promise<number[] | null>;
}

/** The reranker as one request sees it: `answered` turns true once the model has scored something for it. */
export interface RequestReranker extends PassageReranker {
  readonly answered: boolean;
}

/**
 * Wraps the configured reranker for one request, so its answer names the model
 * only when the model ordered something (a failed call keeps the offline order).
 */
export function rerankerForRequest(reranker: PassageReranker | null): RequestReranker | null {
  if (!reranker) return null;
  let answered = false;
  return {
    id: reranker.id,
    topK: reranker.topK,
    get answered() {
      return answered;
    },
    async score(query, passages, signal) {
      const scores = await reranker.score(query, passages, signal);
      if (scores) answered = true;
      return scores;
    },
  };
}

/**
 * An answer's model_used: the answer's model, and the reranker's when it ordered the passages (a stored name counts as
 * having done so).
 */
export function withReranker(
  modelUsed: string,
  reranker: { readonly id: string; readonly answered?: boolean } | null | undefined,
): string {
  return reranker && reranker.answered !== false ? `${modelUsed}, reranked by ${reranker.id}` : modelUsed;
}

/** `scores` reassigned so the top k (by score) follow the reranker's order; returns new scores, same positions. */
export async function rerankScores(
  query: string,
  texts: readonly string[],
  scores: readonly number[],
  reranker: PassageReranker,
  signal?: AbortSignal,
): Promise<number[]> {
  const top = scores
    .map((score, index) => ({ score, index }))
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, reranker.topK);
  if (top.length < 2) return [...scores];
  const modelScores = await reranker.score(
    query,
    top.map((t) => texts[t.index]!),
    signal,
  );
  if (!modelScores) return [...scores];
  const byModel = top.map((t, i) => ({ index: t.index, model: modelScores[i]! })).sort((a, b) => b.model - a.model);
  const out = [...scores];
  byModel.forEach(({ index }, rank) => (out[index] = top[rank]!.score));
  return out;
}
