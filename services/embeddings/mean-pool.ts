/**
 * Sentence vectors from a model's token vectors: the mean of each text's unmasked token vectors, scaled to unit
 * length, written into one flat array (texts × dimensions, row-major) as the embed worker answers them.
 *
 * transformers.js pools the same way but walks the hidden states one dimension at a time and converts the 64-bit
 * attention mask to a number once per token per dimension; for the embedded static model that loop was about 40 %
 * of an embedding's CPU. Here each token's mask is read once and its vector added in one pass.
 */

/** What a text with no token pools to (0/0): a fixed unit vector, equally far from every other. */
function fillNoTokens(out: Float32Array, row: number, dimensions: number): void {
  out.fill(0, row * dimensions, (row + 1) * dimensions);
  out[row * dimensions] = 1;
}

/**
 * `hidden` holds batch × tokens × dimensions values, `mask` batch × tokens (1 for a token, 0 for padding; the
 * tokenizer's BigInt64Array or any numeric array).
 */
export function meanPoolNormalized(
  hidden: ArrayLike<number>,
  mask: ArrayLike<number | bigint>,
  dims: readonly [batch: number, tokens: number, dimensions: number],
): Float32Array {
  const [batch, tokens, dimensions] = dims;
  const out = new Float32Array(batch * dimensions);
  const sum = new Float64Array(dimensions);
  for (let row = 0; row < batch; row++) {
    sum.fill(0);
    let counted = 0;
    for (let token = 0; token < tokens; token++) {
      const weight = Number(mask[row * tokens + token]);
      if (weight === 0) continue;
      counted += weight;
      const start = (row * tokens + token) * dimensions;
      for (let d = 0; d < dimensions; d++) sum[d]! += hidden[start + d]! * weight;
    }
    let norm = 0;
    for (let d = 0; d < dimensions; d++) norm += (sum[d]! / counted) ** 2;
    norm = Math.sqrt(norm);
    if (counted === 0 || !(norm > 0)) {
      fillNoTokens(out, row, dimensions);
      continue;
    }
    const scale = 1 / (counted * norm);
    for (let d = 0; d < dimensions; d++) out[row * dimensions + d] = sum[d]! * scale;
  }
  return out;
}
