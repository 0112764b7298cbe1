import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { loadConfig } from '../../app/config.js';

it('reads the task models from the file and the environment, none by default', () => {
  const cwd = mkdtempSync(join(tmpdir(), 'quarry-models-config-'));
  expect(loadConfig({ env: {}, cwd }).config.models).toMatchObject({
    allowRemote: true,
    entities: { model: null, threads: 1, batchSize: 32 },
    stance: { model: null },
    reranker: { model: null, topK: 30 },
  });
  writeFileSync(
    join(cwd, 'quarry.config.json'),
    JSON.stringify({ models: { entities: { model: '/srv/ner', batchSize: 8 }, reranker: { topK: 10 } } }),
  );
  const env = {
    QUARRY_STANCE_MODEL: 'Xenova/nli-deberta-v3-xsmall',
    QUARRY_RERANKER_MODEL: 'Xenova/ms-marco-MiniLM-L-6-v2',
    QUARRY_MODELS_ALLOW_REMOTE: 'false',
  };
  expect(loadConfig({ env, cwd }).config.models).toMatchObject({
    allowRemote: false,
    entities: { model: '/srv/ner', batchSize: 8 },
    stance: { model: 'Xenova/nli-deberta-v3-xsmall' },
    reranker: { model: 'Xenova/ms-marco-MiniLM-L-6-v2', topK: 10 },
  });
  writeFileSync(join(cwd, 'quarry.config.json'), JSON.stringify({ models: { reranker: { topK: 1 } } }));
  expect(() => loadConfig({ env: {}, cwd })).toThrow(/models\.reranker\.topK/);
});
