import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../app/config.js';
import { PACKAGE_ROOT } from '../../core/paths.js';
import { loadAllEngines } from './engine-sources.js';

const project = mkdtempSync(join(tmpdir(), 'quarry-sources-'));
afterAll(() => rmSync(project, { recursive: true, force: true }));

describe('engine sources', () => {
  it('loads built-in engines, a folder, an npm package and config engines together', async () => {
    // An npm package of engines, laid out as published: package.json + engines/<id>/{plugin.json, engine.js}.
    const pkg = join(project, 'node_modules', 'quarry-engine-pack');
    mkdirSync(join(pkg, 'engines'), { recursive: true });
    writeFileSync(
      join(pkg, 'package.json'),
      JSON.stringify({ name: 'quarry-engine-pack', version: '1.0.0', type: 'module' }),
    );
    cpSync(join(PACKAGE_ROOT, 'examples/engines/example_json'), join(pkg, 'engines', 'example_json'), {
      recursive: true,
    });
    // A folder with a single engine, renamed so the ids do not clash.
    const folder = join(project, 'my-engines', 'other_json');
    cpSync(join(PACKAGE_ROOT, 'examples/engines/example_json'), folder, { recursive: true });
    const manifest = JSON.parse(
      JSON.stringify(await import(join(folder, 'plugin.json'), { with: { type: 'json' } }).then((m) => m.default)),
    );
    writeFileSync(join(folder, 'plugin.json'), JSON.stringify({ ...manifest, id: 'other_json' }));

    const { config } = loadConfig({
      env: {},
      cwd: project,
      overrides: {
        enginePackages: ['quarry-engine-pack'],
        engineDirs: ['my-engines/other_json'],
        customEngines: [
          {
            type: 'json',
            id: 'conf_json',
            name: 'Conf',
            urlTemplate: 'https://c.example/?q={query}',
            results: 'r',
            fields: { url: 'u', title: 't' },
          },
        ],
      },
    });
    const engines = await loadAllEngines(config, project);
    const byId = new Map(engines.map((e) => [e.manifest.id, e]));
    expect(byId.get('example_json')?.source).toBe('package');
    expect(byId.get('other_json')?.source).toBe('directory');
    expect(byId.get('conf_json')?.source).toBe('config');
    expect(byId.get('duckduckgo')?.source).toBe('builtin');
    expect(engines.length).toBeGreaterThanOrEqual(73);
  });

  it('names the package when it cannot be found', async () => {
    const { config } = loadConfig({ env: {}, cwd: project, overrides: { enginePackages: ['no-such-quarry-engine'] } });
    await expect(loadAllEngines(config, project)).rejects.toThrow(/no-such-quarry-engine/);
  });
});
