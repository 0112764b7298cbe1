/**
 * Embeddings of many models are anisotropic: every vector leans the same
 * way, so a static word-vector model puts any two English texts near 0.8
 * and meaning moves cosines only a little. Each model's common direction is
 * measured once (the mean vector of unrelated sentences) and removed before
 * comparing (centering, as in SIF sentence embeddings); the mean cosine of
 * the centred unrelated sentences is the model's floor, which calibrated()
 * maps to 0.
 */
import type { Embedder } from '../embeddings/types.js';
import { cosine } from '../embeddings/types.js';

export const UNRELATED_SENTENCES = [
  'The recipe calls for two cups of flour and a pinch of salt.',
  'Parliament passed the budget after a long night of debate.',
  'The striker scored twice in the second half of the match.',
  'Install the package and restart the server to apply the update.',
  'Glaciers in the Alps have lost much of their ice this century.',
  'She painted the old fence a bright shade of green.',
  'Interest rates rose for the third time this year.',
  'The museum opens a new exhibition of medieval manuscripts.',
  'Our cat sleeps on the windowsill every afternoon.',
  'The train to the airport leaves every fifteen minutes.',
  'Farmers expect a late harvest after the wet spring.',
  'The orchestra rehearsed the symphony for the winter concert.',
];

export interface Calibration {
  /** The model's common direction (mean of unrelated sentence vectors). */
  center: Float32Array;
  /** Mean cosine between centred unrelated sentences. */
  floor: number;
}

const calibrations = new WeakMap<Embedder, Promise<Calibration>>();

/** The vector without the common direction, unit length again. */
export function centred(vector: Float32Array, center: Float32Array): Float32Array {
  const out = new Float32Array(vector.length);
  let norm = 0;
  for (let i = 0; i < vector.length; i++) {
    out[i] = vector[i]! - center[i]!;
    norm += out[i]! * out[i]!;
  }
  norm = Math.sqrt(norm);
  if (norm > 0) for (let i = 0; i < out.length; i++) out[i]! /= norm;
  return out;
}

export function calibration(embedder: Embedder): Promise<Calibration> {
  let found = calibrations.get(embedder);
  if (!found) {
    found = embedder.embed(UNRELATED_SENTENCES).then((vectors) => {
      const center = new Float32Array(vectors[0]!.length);
      for (const v of vectors) for (let i = 0; i < v.length; i++) center[i]! += v[i]! / vectors.length;
      const unrelated = vectors.map((v) => centred(v, center));
      let sum = 0;
      let pairs = 0;
      for (let i = 0; i < unrelated.length; i++) {
        for (let j = i + 1; j < unrelated.length; j++) {
          sum += cosine(unrelated[i]!, unrelated[j]!);
          pairs++;
        }
      }
      return { center, floor: Math.min(0.9, Math.max(0, sum / pairs)) };
    });
    found.catch(() => calibrations.delete(embedder));
    calibrations.set(embedder, found);
  }
  return found;
}

/** Embeds texts and centres the vectors with the model's calibration. */
export async function embedCentred(
  embedder: Embedder,
  texts: string[],
  signal?: AbortSignal,
): Promise<{ vectors: Float32Array[]; floor: number }> {
  const [raw, { center, floor }] = await Promise.all([embedder.embed(texts, signal), calibration(embedder)]);
  return { vectors: raw.map((v) => centred(v, center)), floor };
}

/** Rescales a cosine of centred vectors so that the model's floor is 0 and identity is 1. */
export function calibrated(cos: number, floor: number): number {
  return Math.max(0, Math.min(1, (cos - floor) / (1 - floor)));
}
