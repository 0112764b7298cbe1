import { join } from 'node:path';
import { pipeline, type FeatureExtractionPipeline } from '@huggingface/transformers';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../core/paths.js';
import embedWorker from '../../workers/embed.worker.js';
import { meanPoolNormalized } from './mean-pool.js';
import { EMBEDDED_MODEL_ID } from './model-resolution.js';
import type { EmbedResult, ModelSpec } from './worker-protocol.js';

/** The textbook definition, one dimension at a time: what the pooled vectors must equal. */
function reference(hidden: number[], mask: number[], [batch, tokens, dims]: [number, number, number]): number[][] {
  return Array.from({ length: batch }, (_, row) => {
    const mean = Array.from({ length: dims }, (_, d) => {
      let sum = 0;
      let count = 0;
      for (let t = 0; t < tokens; t++) {
        count += mask[row * tokens + t]!;
        sum += hidden[(row * tokens + t) * dims + d]! * mask[row * tokens + t]!;
      }
      return sum / count;
    });
    const norm = Math.hypot(...mean);
    return mean.map((value) => value / norm);
  });
}

describe('meanPoolNormalized', () => {
  it('is the unit-length mean of each text’s unmasked token vectors', () => {
    const dims: [number, number, number] = [3, 5, 4];
    // Deterministic values, negative and positive; row 1 has two padding tokens, row 2 one.
    const hidden = Array.from({ length: 3 * 5 * 4 }, (_, i) => Math.sin(i * 1.7) * 3);
    const mask = [1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 1, 1, 1, 1, 0];
    const pooled = meanPoolNormalized(hidden, BigInt64Array.from(mask.map(BigInt)), dims);
    const expected = reference(hidden, mask, dims);
    for (let row = 0; row < 3; row++)
      for (let d = 0; d < 4; d++) expect(pooled[row * 4 + d]).toBeCloseTo(expected[row]![d]!, 6);
  });

  it('gives a text without tokens, or whose tokens sum to zero, the fixed unit vector', () => {
    const pooled = meanPoolNormalized([1, 2, 0, 0, 0, 0, 0, 0], [1, 0, 0, 1], [2, 2, 2]);
    expect(Array.from(pooled.slice(0, 2))).toEqual([1 / Math.hypot(1, 2), 2 / Math.hypot(1, 2)].map(Math.fround));
    expect(Array.from(pooled.slice(2))).toEqual([1, 0]);
    expect(Array.from(meanPoolNormalized([5, 5], [0], [1, 1, 2]))).toEqual([1, 0]);
  });
});

describe('the embed worker on the embedded model', () => {
  it('answers the vectors transformers.js pools, for texts of different lengths in one batch', async () => {
    const spec: ModelSpec = {
      model: EMBEDDED_MODEL_ID,
      id: EMBEDDED_MODEL_ID,
      source: 'embedded',
      localModelPath: join(PACKAGE_ROOT, 'models') + '/',
      allowRemote: false,
      remoteHost: 'https://huggingface.co/',
      cacheDir: null,
    };
    const texts = [
      'Limestone is cut from the quarry face with wire saws.',
      'granite',
      'Slabs are stacked on timber bearers so that air reaches every face, then shipped to masons.',
      '',
    ];
    const ours = (await embedWorker({ kind: 'embed', spec, texts })) as EmbedResult;
    const theirs = await (
      pipeline as unknown as (task: string, model: string, options: object) => Promise<FeatureExtractionPipeline>
    )('feature-extraction', EMBEDDED_MODEL_ID, { dtype: 'fp32', device: 'cpu' });
    const expected = (await theirs(texts.slice(0, 3), { pooling: 'mean', normalize: true })).data as Float32Array;
    expect(ours.dimensions).toBe(100);
    for (let i = 0; i < 300; i++) expect(ours.data[i]).toBeCloseTo(expected[i]!, 5);
    // The empty text pools to the fixed vector.
    expect(ours.data[300]).toBe(1);
    expect(Array.from(ours.data.slice(301, 400)).every((value) => value === 0)).toBe(true);
    await theirs.dispose();
  });
});
