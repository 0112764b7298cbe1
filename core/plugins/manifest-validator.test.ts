import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadAreaFolder, loadEngineFolder } from './plugin-loader.js';
import { ManifestError, validateManifest } from './manifest-validator.js';

const goodEngine = {
  id: 'sample_engine',
  kind: 'engine',
  version: '1.0.0',
  core: '^0.1.0',
  name: 'Sample',
  categories: ['general'],
  weight: 1,
  baseUrl: 'https://example.org',
  supports: { paging: false, maxPage: 0, timeRange: false, safeSearch: false, languages: false, autocomplete: false },
  languages: ['all'],
  about: {
    website: 'https://example.org',
    officialApi: true,
    results: 'JSON',
    requiresApiKey: false,
    resultKind: 'web',
    verifiedOn: 'documented',
  },
};

function engineFolder(manifest: unknown, code = 'export default { buildRequest() {}, parseResponse() {} };'): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'quarry-manifest-')), 'sample_engine');
  mkdirSync(dir);
  writeFileSync(join(dir, 'plugin.json'), JSON.stringify(manifest));
  writeFileSync(join(dir, 'engine.js'), code);
  return dir;
}

describe('plugin manifests', () => {
  it('accepts a complete engine manifest', () => {
    expect(validateManifest(goodEngine, 'sample').id).toBe('sample_engine');
  });

  it.each([
    [{ ...goodEngine, id: 'Sample-Engine' }, 'id'],
    [{ ...goodEngine, categories: ['gossip'] }, 'categories.0'],
    [{ ...goodEngine, weight: 0 }, 'weight'],
    [{ ...goodEngine, baseUrl: 'ftp://example.org' }, 'baseUrl'],
    [{ ...goodEngine, supports: { ...goodEngine.supports, paging: 'yes' } }, 'supports.paging'],
    [{ ...goodEngine, about: { ...goodEngine.about, verifiedOn: 'vibes' } }, 'about.verifiedOn'],
    [{ ...goodEngine, colour: 'blue' }, 'colour'],
    [(({ about: _about, ...rest }) => rest)(goodEngine), 'about'],
  ])('rejects %# naming the field %s', (manifest, field) => {
    try {
      validateManifest(manifest, 'engines/sample_engine/plugin.json');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ManifestError);
      expect((error as Error).message).toContain('engines/sample_engine/plugin.json');
      expect((error as Error).message).toContain(field);
    }
  });

  it('loads an engine folder and refuses one whose module is not an engine', async () => {
    const loaded = await loadEngineFolder(engineFolder(goodEngine), 'directory');
    expect(loaded.manifest.id).toBe('sample_engine');
    await expect(loadEngineFolder(engineFolder(goodEngine, 'export default 42;'), 'directory')).rejects.toThrow(
      /buildRequest/,
    );
    await expect(
      loadEngineFolder(engineFolder({ ...goodEngine, kind: 'area', capabilities: [] }), 'directory'),
    ).rejects.toThrow(ManifestError);
  });

  it('refuses an area plugin whose setup is missing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'quarry-area-'));
    writeFileSync(
      join(dir, 'plugin.json'),
      JSON.stringify({
        id: 'area_x',
        kind: 'area',
        version: '1.0.0',
        core: '^0.1.0',
        name: 'X',
        capabilities: ['area_x.do'],
        uses: ['webSearch'],
      }),
    );
    writeFileSync(join(dir, 'index.js'), 'export default {};');
    await expect(loadAreaFolder(dir)).rejects.toThrow(/setup/);
  });

  it('requires an area manifest to declare the services it uses, by their names', () => {
    const area = {
      id: 'area_x',
      kind: 'area',
      version: '1.0.0',
      core: '^0.1.0',
      name: 'X',
      capabilities: ['area_x.do'],
    };
    expect(() => validateManifest(area, 'plugins/area_x/plugin.json')).toThrow(/uses: is required/);
    expect(() => validateManifest({ ...area, uses: ['crystalBall'] }, 'plugins/area_x/plugin.json')).toThrow(
      /uses\.0: must be one of/,
    );
    expect(validateManifest({ ...area, uses: ['webSearch', 'jobs'] }, 'plugins/area_x/plugin.json').id).toBe('area_x');
    expect(() => validateManifest({ ...goodEngine, uses: ['webSearch'] }, 'engines/sample_engine/plugin.json')).toThrow(
      ManifestError,
    );
  });
});
