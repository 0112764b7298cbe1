// The hub path end to end without internet: the sandbox web serves the embedded model's files in
// the Hugging Face URL layout that transformers.js 3.8.1 requests
// (<remoteHost>/<model id>/resolve/<revision>/<file>, its env.remotePathTemplate), and the
// embedder downloads them into an empty cache, then finds them there on the next start.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxWeb, type SandboxWeb } from '../../test/sandbox/sandbox-web.js';
import { silentLogger } from '../../core/logger.js';
import { PACKAGE_ROOT } from '../../core/paths.js';
import { createEmbedder } from './embedding-service.js';
import { EMBEDDED_MODEL_ID } from './model-resolution.js';
import { cosine } from './types.js';

const HUB_ID = 'quarry-test/glove-static-100d';
const FILES = ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'onnx/model.onnx'];
let sandbox: SandboxWeb;
let dataDir: string;

beforeAll(async () => {
  sandbox = await startSandboxWeb();
  dataDir = mkdtempSync(join(tmpdir(), 'quarry-hub-'));
  const source = join(PACKAGE_ROOT, 'models', EMBEDDED_MODEL_ID);
  for (const file of FILES) {
    const type = file.endsWith('.json') ? 'application/json' : 'application/octet-stream';
    sandbox.addFile(`/${HUB_ID}/resolve/main/${file}`, readFileSync(join(source, file)), type);
  }
});

afterAll(async () => {
  await sandbox.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('embedding model from the hub', () => {
  it('downloads into the cache, then loads from the cache with downloads off', async () => {
    const cacheDir = join(dataDir, 'cache');
    const options = { dataDir, model: HUB_ID, remoteHost: `${sandbox.url}/`, cacheDir };
    const hub = await createEmbedder({ ...options, allowRemote: true }, silentLogger());
    const [fromHub] = await hub.embed(['rain is expected over the hills tonight']);
    await hub.close();
    expect(hub.info()).toEqual({ id: HUB_ID, source: 'hub', dimensions: 100 });
    const fetched = sandbox.requestLog().map((r) => r.path);
    for (const file of FILES) {
      expect(fetched).toContain(`/${HUB_ID}/resolve/main/${file}`);
      expect(existsSync(join(cacheDir, HUB_ID, file))).toBe(true);
    }

    const requestsBefore = sandbox.requestLog().length;
    const cached = await createEmbedder({ ...options, allowRemote: false }, silentLogger());
    const [fromCache] = await cached.embed(['rain is expected over the hills tonight']);
    await cached.close();
    expect(cached.info()).toEqual({ id: HUB_ID, source: 'cache', dimensions: 100 });
    expect(sandbox.requestLog()).toHaveLength(requestsBefore);
    expect(cosine(fromHub!, fromCache!)).toBeCloseTo(1, 5);
  });

  it('falls back to the embedded model when the hub does not have the model', async () => {
    const options = {
      dataDir,
      model: 'quarry-test/missing-model',
      remoteHost: `${sandbox.url}/`,
      cacheDir: join(dataDir, 'cache-2'),
      allowRemote: true,
    };
    const embedder = await createEmbedder(options, silentLogger());
    await embedder.close();
    expect(embedder.info()).toMatchObject({ id: EMBEDDED_MODEL_ID, source: 'embedded' });
    expect(embedder.info().fallbackReason).toMatch(/quarry-test\/missing-model \(hub\).*(404|locate)/i);
  });
});
