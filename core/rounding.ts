/**
 * The one rounding of scores written into answers. Scores carry four decimals; verify's
 * confidences and credibility carry three. Each caller keeps the precision it always answered with.
 */
export function roundTo(value: number, decimals: number): number {
  const scale = 10 ** decimals;
  return Math.round(value * scale) / scale;
}

/** Four decimals: ranking, merge and relevance scores. */
export function roundScore(value: number): number {
  return roundTo(value, 4);
}

/** Three decimals: verify's confidences and credibility scores. */
export function roundConfidence(value: number): number {
  return roundTo(value, 3);
}
