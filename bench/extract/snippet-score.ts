/**
 * Trafilatura's evaluation: each page lists snippets that must appear in the
 * extracted text ("with") and snippets that must not ("without"). Counts are
 * summed over all pages: a found "with" is a true positive, a missing one a
 * false negative; a found "without" is a false positive, a missing one a true
 * negative. Whitespace is collapsed before matching, as upstream does.
 */

export interface SnippetCounts {
  tp: number;
  fn: number;
  fp: number;
  tn: number;
}

export interface SnippetScore {
  precision: number;
  recall: number;
  accuracy: number;
  f1: number;
}

const squash = (text: string): string => text.replace(/\s+/g, ' ').trim();

export function snippetCounts(extracted: string, withSnippets: string[], withoutSnippets: string[]): SnippetCounts {
  const text = squash(extracted);
  const found = (snippet: string): boolean => text.includes(squash(snippet));
  const hits = withSnippets.filter(found).length;
  const leaks = withoutSnippets.filter(found).length;
  return { tp: hits, fn: withSnippets.length - hits, fp: leaks, tn: withoutSnippets.length - leaks };
}

export function snippetScore(all: SnippetCounts[]): SnippetScore {
  const total = all.reduce(
    (sum, c) => ({ tp: sum.tp + c.tp, fn: sum.fn + c.fn, fp: sum.fp + c.fp, tn: sum.tn + c.tn }),
    { tp: 0, fn: 0, fp: 0, tn: 0 },
  );
  const precision = total.tp / Math.max(1, total.tp + total.fp);
  const recall = total.tp / Math.max(1, total.tp + total.fn);
  const accuracy = (total.tp + total.tn) / Math.max(1, total.tp + total.tn + total.fp + total.fn);
  return {
    precision,
    recall,
    accuracy,
    f1: precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0,
  };
}
