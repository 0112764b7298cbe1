// The task models loaded in the built worker (dist/workers/models.worker.js: `npm run build` first; `npm test`
// does it) from tiny models of the real shapes written here (fixtures/tiny-models.ts). Nothing is downloaded:
// the hub is the sandbox web serving the same files in the Hugging Face URL layout.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { silentLogger, type Logger } from '../../core/logger.js';
import { startSandboxWeb, type SandboxWeb } from '../../test/sandbox/sandbox-web.js';
import { ProcessPool } from '../embeddings/process-pool.js';
import { analyzeText } from '../entities/analyze.js';
import { EntityRecognizer } from '../entities/recognizer.js';
import { modelsConfigSchema, type ModelsConfig } from './config.js';
import { NER_SPEC, NLI_SPEC, RERANKER_SPEC, writeTinyModel } from './fixtures/tiny-models.js';
import { ModelServices } from './model-services.js';
import type { ModelTask, PairsResult } from './protocol.js';
import { rerankScores } from '../ranking/reranker.js';

let dir: string;
const open: ModelServices[] = [];
const warnings: string[] = [];
const recordingLogger = (): Logger => {
  const logger = silentLogger();
  const record = (obj: unknown, message?: string) => warnings.push(`${message ?? ''} ${JSON.stringify(obj)}`);
  const child = (): Logger => Object.assign(Object.create(logger) as Logger, { warn: record, child });
  return child();
};

function services(
  models: Partial<Record<'entities' | 'stance' | 'reranker', string | null>>,
  extra: Record<string, unknown> = {},
  batchSize?: number,
  topK = 5,
): ModelServices {
  const config: ModelsConfig = modelsConfigSchema.parse({
    allowRemote: false,
    ...extra,
    entities: { model: models.entities ?? null, ...(batchSize ? { batchSize } : {}) },
    stance: { model: models.stance ?? null, ...(batchSize ? { batchSize } : {}) },
    reranker: { model: models.reranker ?? null, ...(batchSize ? { batchSize } : {}), topK },
  });
  const created = new ModelServices({ ...config, dataDir: dir }, recordingLogger());
  open.push(created);
  return created;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'quarry-models-'));
  writeTinyModel(join(dir, 'tiny-ner'), 'token', NER_SPEC);
  writeTinyModel(join(dir, 'tiny-nli'), 'pair', NLI_SPEC);
  writeTinyModel(join(dir, 'tiny-reranker'), 'pair', RERANKER_SPEC);
});

afterAll(async () => {
  await Promise.all(open.map((s) => s.close()));
  rmSync(dir, { recursive: true, force: true });
});

const TEXT = 'Zorblax hired Quenby Marsh last spring. The deal was small. Later, Quenby Marsh left Zorblax.';

describe('token classifier (entities)', () => {
  it('loads from a local folder in a worker process and its tags become the entities', async () => {
    const models = services({ entities: join(dir, 'tiny-ner') });
    const classifier = (await models.tokenClassifier())!;
    expect(classifier.id).toBe('tiny-ner');
    expect(models.state('entities').model).toMatchObject({ source: 'local-path', labels: NER_SPEC.labels });
    expect(models.workerPid('entities')).not.toBe(process.pid);
    const extraction = await classifier.extract(TEXT);
    const found = extraction.entities.map((e) => [e.type, e.name]);
    expect(found).toEqual(
      expect.arrayContaining([
        ['organization', 'Zorblax'],
        ['person', 'Quenby Marsh'],
      ]),
    );
    expect(found).toHaveLength(2);
    // The model visibly decides: it names the lower-case words it knows, which the offline tagger leaves alone.
    const lower = 'zorblax hired quenby marsh last spring.';
    expect((await classifier.extract(lower)).entities.length).toBeGreaterThan(0);
    expect(analyzeText(EntityRecognizer.load(), lower).entities).toEqual([]);
  });

  it('tags many sentences in batches with the same result as one batch', async () => {
    const long = Array.from({ length: 9 }, (_, i) => `Report ${i} says Zorblax met Quenby Marsh.`).join(' ');
    const small = (await services({ entities: join(dir, 'tiny-ner') }, {}, 2).tokenClassifier())!;
    const big = (await services({ entities: join(dir, 'tiny-ner') }, {}, 64).tokenClassifier())!;
    const [a, b] = await Promise.all([small.extract(long), big.extract(long)]);
    expect(a).toEqual(b);
    expect(a.entities.map((e) => e.name).sort()).toEqual(['Quenby Marsh', 'Zorblax']);
  });
});

describe('pair models (stance, reranker)', () => {
  it('judges stance from the NLI labels, coalescing calls into batches, in order', async () => {
    const models = services({ stance: join(dir, 'tiny-nli') }, {}, 2);
    const stance = (await models.stanceModel())!;
    expect(stance.id).toBe('tiny-nli');
    const sentences = ['officials confirmed it', 'the firm denied it', 'it rained', 'confirmed again', 'denied again'];
    const [all, ...single] = await Promise.all([
      stance.judge('the merger happened', sentences),
      ...sentences.map((s) => stance.judge('the merger happened', [s])),
    ]);
    expect(all!.map((j) => j.stance)).toEqual(['supports', 'contradicts', 'unrelated', 'supports', 'contradicts']);
    expect(single.map((j) => j[0]!.stance)).toEqual(all!.map((j) => j.stance));
    expect(all![0]!.strength).toBeGreaterThan(0.9);
    expect(all![2]!.strength).toBe(0);
  });

  it('scores (query, passage) pairs with the cross-encoder', async () => {
    const reranker = (await services({ reranker: join(dir, 'tiny-reranker') }).passageReranker())!;
    expect(reranker).toMatchObject({ id: 'tiny-reranker', topK: 5 });
    const [plain, zebra, striped] = (await reranker.score('animals', [
      'a horse in a field',
      'a zebra in a field',
      'a striped horse',
    ]))!;
    expect(zebra!).toBeGreaterThan(striped!);
    expect(striped!).toBeGreaterThan(plain!);
  });
});

describe('reranker batching', () => {
  /** Every pair batch the model worker is sent: its size and the process that scored it. */
  function recordBatches() {
    const batches: Array<{ pairs: number; pid: number }> = [];
    const run = ProcessPool.prototype.run;
    const spy = vi.spyOn(ProcessPool.prototype, 'run').mockImplementation(async function (
      this: ProcessPool<unknown, unknown>,
      task,
      limits,
    ) {
      const result = await run.call(this, task, limits);
      const sent = task as ModelTask;
      if (sent.kind === 'pairs') batches.push({ pairs: sent.pairs.length, pid: (result as PairsResult).pid });
      return result;
    });
    return { batches, restore: () => spy.mockRestore() };
  }

  it('scores only the top k of many passages, in bounded batches, in the model worker, as one batch would', async () => {
    const texts = Array.from({ length: 100 }, (_, i) =>
      i % 10 === 9 ? `passage ${i} about a zebra` : `passage ${i} about a horse`,
    );
    const offline = texts.map((_, i) => 1 - i / 100);
    const small = (await services({ reranker: join(dir, 'tiny-reranker') }, {}, 4, 40).passageReranker())!;
    const big = (await services({ reranker: join(dir, 'tiny-reranker') }, {}, 64, 40).passageReranker())!;
    const recorder = recordBatches();
    try {
      const reranked = await rerankScores('animals', texts, offline, small);
      expect(recorder.batches.reduce((sum, b) => sum + b.pairs, 0)).toBe(40);
      expect(recorder.batches).toHaveLength(10);
      expect(recorder.batches.every((b) => b.pairs <= 4 && b.pid !== process.pid)).toBe(true);
      // The zebras among the best 40 take the 4 best scores; passages past the top k keep theirs.
      const best = reranked
        .map((score, index) => ({ score, index }))
        .sort((a, b) => b.score - a.score)
        .slice(0, 4);
      expect(best.map((b) => b.index).sort((a, b) => a - b)).toEqual([9, 19, 29, 39]);
      expect(reranked.slice(40)).toEqual(offline.slice(40));
      expect(await small.score('animals', texts.slice(0, 40))).toEqual(await big.score('animals', texts.slice(0, 40)));
    } finally {
      recorder.restore();
    }
  });

  it('keeps the offline order when the model fails a call, and logs why', async () => {
    const reranker = (await services({ reranker: join(dir, 'tiny-reranker') }).passageReranker())!;
    const spy = vi.spyOn(ProcessPool.prototype, 'run').mockRejectedValue(new Error('the worker died'));
    try {
      const offline = [0.9, 0.5, 0.2];
      expect(await rerankScores('animals', ['a horse', 'a striped horse', 'a zebra'], offline, reranker)).toEqual(
        offline,
      );
      expect(
        warnings.some((w) => w.includes('reranker failed: keeping the offline order') && w.includes('tiny-reranker')),
      ).toBe(true);
    } finally {
      spy.mockRestore();
    }
  });
});

describe('fallback to the offline default', () => {
  it('answers null with no model configured, and starts no worker', async () => {
    const models = services({});
    expect(await models.tokenClassifier()).toBeNull();
    expect(await models.stanceModel()).toBeNull();
    expect(await models.passageReranker()).toBeNull();
    expect(models.workerPid('entities')).toBeNull();
    expect(models.describe('stance').detail).toBe('the stance rules');
  });

  it('falls back when the folder holds a broken model, with the reason in state, features and the log', async () => {
    const broken = join(dir, 'broken-ner');
    mkdirSync(join(broken, 'onnx'), { recursive: true });
    writeFileSync(join(broken, 'config.json'), '{"model_type": "bert", "id2label": {"0": "O", "1": "B-PER"}}');
    writeFileSync(join(broken, 'tokenizer.json'), readFileSync(join(dir, 'tiny-ner', 'tokenizer.json')));
    writeFileSync(join(broken, 'onnx', 'model.onnx'), 'not an onnx file');
    const models = services({ entities: broken });
    expect(await models.tokenClassifier()).toBeNull();
    expect(models.state('entities').fallbackReason).toContain(broken);
    const feature = models.describe('entities');
    expect(feature.detail).toMatch(/^the offline tagger/);
    expect(feature.detail).toContain('broken-ner');
    expect(feature.detail).not.toContain(dir);
    expect(warnings.some((w) => w.includes('entities model fell back') && w.includes(broken))).toBe(true);
  });

  it('falls back when a missing folder or an uncached hub id with downloads off is configured', async () => {
    const models = services({ entities: join(dir, 'no-such-model'), stance: 'quarry-test/not-cached' });
    expect(await models.tokenClassifier()).toBeNull();
    expect(await models.stanceModel()).toBeNull();
    expect(models.state('entities').fallbackReason).toMatch(/no-such-model/);
    expect(models.state('stance').fallbackReason).toMatch(
      /quarry-test\/not-cached is not in the cache .* downloads are off/,
    );
  });

  it('refuses an NLI model whose labels name no entailment and contradiction', async () => {
    const models = services({ stance: join(dir, 'tiny-reranker') });
    expect(await models.stanceModel()).toBeNull();
    expect(models.state('stance').fallbackReason).toMatch(/LABEL_0.*name no entailment and contradiction/);
  });
});

describe('from the hub', () => {
  let web: SandboxWeb;
  beforeAll(async () => {
    web = await startSandboxWeb();
    for (const file of ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'onnx/model.onnx']) {
      web.addFile(
        `/quarry-test/tiny-nli/resolve/main/${file}`,
        readFileSync(join(dir, 'tiny-nli', file)),
        file.endsWith('.json') ? 'application/json' : 'application/octet-stream',
      );
    }
  });
  afterAll(() => web.close());

  it('downloads into the cache, then loads from the cache with downloads off', async () => {
    const hub = { remoteHost: `${web.url}/`, cacheDir: join(dir, 'cache') };
    const downloaded = services({ stance: 'quarry-test/tiny-nli' }, { ...hub, allowRemote: true });
    expect((await downloaded.stanceModel())?.id).toBe('quarry-test/tiny-nli');
    expect(downloaded.state('stance').model?.source).toBe('hub');
    const requests = web.requestLog().length;
    const cached = services({ stance: 'quarry-test/tiny-nli' }, { ...hub, allowRemote: false });
    const [judgement] = await (await cached.stanceModel())!.judge('x', ['it was confirmed']);
    expect(cached.state('stance').model?.source).toBe('cache');
    expect(judgement!.stance).toBe('supports');
    expect(web.requestLog()).toHaveLength(requests);
  });
});
