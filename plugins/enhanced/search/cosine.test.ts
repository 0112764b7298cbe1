import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmbedder } from '../../../services/embeddings/embedding-service.js';
import type { Embedder } from '../../../services/embeddings/types.js';
import { fixturePages } from '../../../test/sandbox/fixture-pages.js';
import { pageBlocks } from '../../../services/page-analysis/text-blocks.js';
import { agglomerate, COSINE_DEFAULTS, cosineClusters } from './cosine.js';
import { pruneBlocks } from './pruning.js';

let embedder: Embedder;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'quarry-cosine-'));
  embedder = await createEmbedder({ dataDir, allowRemote: false }, { info: () => undefined, warn: () => undefined });
}, 60_000);

afterAll(async () => {
  await embedder?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const blocksOf = (name: string) => pruneBlocks(pageBlocks(fixturePages().find((p) => p.name === name)!.html));

describe('agglomerative clustering', () => {
  it('merges the most similar vectors first and stops at the threshold', async () => {
    const v = (...xs: number[]) => {
      const norm = Math.hypot(...xs);
      return Float32Array.from(xs.map((x) => x / norm));
    };
    const vectors = [v(1, 0, 0), v(0.95, 0.1, 0), v(0, 1, 0), v(0, 0.9, 0.2), v(0, 0, 1)];
    expect(await agglomerate(vectors, 0.9)).toEqual([[0, 1], [2, 3], [4]]);
    expect(await agglomerate(vectors, 0.999)).toHaveLength(5);
    expect(await agglomerate(vectors, -1)).toEqual([[0, 1, 2, 3, 4]]);
  });
});

describe('cosine strategy with the embedded model', () => {
  it('ranks the charging paragraphs of a real article first and leaves off-topic teasers behind', async () => {
    const result = await cosineClusters(blocksOf('article-audi-etron-sportback'), embedder, {
      ...COSINE_DEFAULTS,
      semanticFilter: 'battery range and charging',
      topK: 10,
      minRelevance: 0,
    });
    expect(result.blocks_considered).toBeGreaterThan(15);
    expect(result.total_clusters).toBeGreaterThan(1);
    const [top] = result.clusters;
    expect(top!.text).toMatch(/charging/);
    expect(top!.keywords.length).toBeGreaterThan(0);
    const pokemon = result.clusters.findIndex((c) => /Pokemon/.test(c.text));
    expect(pokemon === -1 || pokemon > 0).toBe(true);
    const relevances = result.clusters.map((c) => c.relevance);
    expect([...relevances].sort((a, b) => b - a)).toEqual(relevances);
  });

  it('follows semantic_filter, top_k and word_count_threshold', async () => {
    const blocks = blocksOf('blog-llm-tuning-math');
    const result = await cosineClusters(blocks, embedder, {
      ...COSINE_DEFAULTS,
      semanticFilter: 'cost of gpt-4 compared with gpt-3.5-turbo',
      topK: 2,
    });
    expect(result.clusters.length).toBeLessThanOrEqual(2);
    expect(result.clusters[0]!.text).toMatch(/gpt-4/);
    const strict = await cosineClusters(blocks, embedder, {
      ...COSINE_DEFAULTS,
      semanticFilter: 'x',
      wordCountThreshold: 100,
    });
    expect(strict.blocks_considered).toBe(blocks.filter((b) => b.words >= 100).length);
  });
});
