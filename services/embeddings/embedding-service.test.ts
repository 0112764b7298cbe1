// Runs the real embedded model in the built worker (dist/workers/embed.worker.js: `npm run build`
// first; `npm test` does it) — no mocks, so these also check the model the build script wrote.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../core/errors.js';
import { silentLogger } from '../../core/logger.js';
import { PACKAGE_ROOT } from '../../core/paths.js';
import { embedTextsAdapter } from './adapter.js';
import { createEmbedder, type EmbedderOptions } from './embedding-service.js';
import { EMBEDDED_MODEL_ID } from './model-resolution.js';
import { cosine, type Embedder } from './types.js';

const logger = silentLogger();
let dataDir: string;
let embedder: Embedder;
const open: Embedder[] = [];

async function start(options: Partial<EmbedderOptions> = {}): Promise<Embedder> {
  const created = await createEmbedder({ dataDir, allowRemote: false, ...options }, logger);
  open.push(created);
  return created;
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'quarry-embed-'));
  embedder = await start();
});

afterAll(async () => {
  await Promise.all(open.map((e) => e.close()));
  rmSync(dataDir, { recursive: true, force: true });
});

describe('embedder with the embedded model', () => {
  it('reports the embedded model', () => {
    expect(embedder.info()).toEqual({ id: EMBEDDED_MODEL_ID, source: 'embedded', dimensions: 100 });
  });

  it('scores similar sentences higher than unrelated ones', async () => {
    const [markets, shares, cat] = await embedder.embed([
      'stock markets fell as the bank raised rates',
      'shares dropped after the central bank increased borrowing costs',
      'the cat slept on the warm windowsill all afternoon',
    ]);
    expect(cosine(markets!, shares!)).toBeGreaterThan(0.8);
    expect(cosine(markets!, shares!)).toBeGreaterThan(cosine(markets!, cat!) + 0.3);
    expect(cosine(shares!, cat!)).toBeLessThan(0.5);
  });

  it('returns unit vectors, also for empty text', async () => {
    for (const vector of await embedder.embed(['', 'hello world', '!!!'])) {
      expect(vector).toBeInstanceOf(Float32Array);
      expect(Math.sqrt(cosine(vector, vector))).toBeCloseTo(1, 4);
    }
  });

  it('splits big calls into batches and coalesces small ones, keeping order', async () => {
    const texts = Array.from(
      { length: 23 },
      (_, i) => `sentence number ${i} about ${['rivers', 'music', 'trains', 'bread'][i % 4]}`,
    );
    const small = await start({ batchSize: 4 });
    const whole = await small.embed(texts);
    const single = await Promise.all(texts.map((text) => small.embed([text])));
    expect(whole).toHaveLength(texts.length);
    whole.forEach((vector, i) => expect(cosine(vector, single[i]![0]!)).toBeCloseTo(1, 5));
    expect(cosine(whole[0]!, whole[4]!)).toBeGreaterThan(cosine(whole[0]!, whole[1]!));
  });

  it('refuses work with OVERLOADED when the queue is full', async () => {
    const tight = await start({ batchSize: 2, maxQueue: 1 });
    const big = tight.embed(Array.from({ length: 400 }, (_, i) => `text ${i}`));
    const refused = await tight.embed(['one more']).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).code).toBe('OVERLOADED');
    expect((refused as AppError).retryAfterSeconds).toBeGreaterThan(0);
    await expect(big).resolves.toHaveLength(400);
  });

  it('cancels queued work with CANCELLED', async () => {
    const controller = new AbortController();
    const busy = embedder.embed(Array.from({ length: 300 }, (_, i) => `busy ${i}`));
    const cancelled = embedder.embed(['later'], controller.signal).catch((e: unknown) => e);
    controller.abort();
    expect(((await cancelled) as AppError).code).toBe('CANCELLED');
    await busy;
  });

  it('spreads work over two worker processes with the same results', async () => {
    const two = await start({ threads: 2, batchSize: 8 });
    const texts = Array.from({ length: 100 }, (_, i) => `parallel text ${i} on ${i % 2 ? 'weather' : 'football'}`);
    const [a, b] = await Promise.all([two.embed(texts), embedder.embed(texts)]);
    a.forEach((vector, i) => expect(cosine(vector, b[i]!)).toBeCloseTo(1, 5));
  });

  it('serves the semantic chunker through embedTextsAdapter', async () => {
    const vectors = await embedTextsAdapter(embedder)(['a', 'b c']);
    expect(vectors).toHaveLength(2);
    expect(Array.isArray(vectors[0])).toBe(true);
    expect(vectors[0]).toHaveLength(100);
  });
});

describe('model resolution', () => {
  const modelDir = join(PACKAGE_ROOT, 'models', EMBEDDED_MODEL_ID);

  it('loads a configured local folder', async () => {
    const local = await start({ model: modelDir });
    expect(local.info()).toMatchObject({ id: modelDir, source: 'local-path', dimensions: 100 });
    expect(local.info().fallbackReason).toBeUndefined();
  });

  it('falls back to the embedded model when the hub id is not cached and downloads are off', async () => {
    const fallback = await start({ model: 'quarry-test/not-cached', cacheDir: join(dataDir, 'empty-cache') });
    expect(fallback.info()).toMatchObject({ id: EMBEDDED_MODEL_ID, source: 'embedded' });
    expect(fallback.info().fallbackReason).toMatch(/quarry-test\/not-cached.*not in the cache/);
  });

  it('falls back when a configured folder holds a broken model', async () => {
    const broken = join(dataDir, 'broken-model');
    mkdirSync(join(broken, 'onnx'), { recursive: true });
    for (const file of ['config.json', 'tokenizer.json']) writeFileSync(join(broken, file), '{"model_type": "bert"}');
    writeFileSync(join(broken, 'onnx', 'model.onnx'), 'not an onnx file');
    const fallback = await start({ model: broken });
    expect(fallback.info().source).toBe('embedded');
    expect(fallback.info().fallbackReason).toContain(broken);
  });
});
