/**
 * The catalogue's naming rules (spec, engine catalogue: "images engines end in
 * `_images`, the scholarly one in `_scholar`"), checked for every built-in
 * engine, and former ids (manifest aliases) that still resolve.
 */
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../core/logger.js';
import { EngineHealth } from './engine-health.js';
import { EngineService } from './engine-service.js';
import { loadBuiltinEngines } from './engine-sources.js';

const engines = await loadBuiltinEngines();
const noFetch = { fetch: () => Promise.reject(new Error('no network in this test')) };
const noParsing = { engine: () => Promise.reject(new Error('no engine answers in this test')) };

function service(config: Record<string, object> = {}): EngineService {
  return new EngineService(
    engines,
    { engines: config },
    noFetch,
    noParsing,
    new EngineHealth(),
    createLogger('silent'),
  );
}

describe('engine catalogue naming', () => {
  it('gives every engine a short lower-case id', () => {
    for (const { manifest } of engines) expect(manifest.id).toMatch(/^[a-z][a-z0-9_]{0,63}$/);
  });

  it('ends the id of every images engine in _images, and only those', () => {
    const images = engines.filter((e) => e.manifest.categories.includes('images')).map((e) => e.manifest.id);
    expect(images.length).toBeGreaterThanOrEqual(9);
    expect(images.filter((id) => !id.endsWith('_images'))).toEqual([]);
    const named = engines.filter((e) => e.manifest.id.endsWith('_images')).map((e) => e.manifest.id);
    expect(named.sort()).toEqual([...images].sort());
  });

  it('ends the id of the scholarly engine in _scholar', () => {
    expect(engines.some((e) => e.manifest.id === 'google_scholar' && e.manifest.categories.includes('academic'))).toBe(
      true,
    );
  });
});

describe('former engine ids', () => {
  it('resolves europeana to europeana_images, in requests and in configuration', () => {
    const catalogue = service({ europeana: { apiKey: 'k-old', weight: 2 } });
    expect(catalogue.has('europeana')).toBe(true);
    expect(catalogue.canonicalId('europeana')).toBe('europeana_images');
    expect(catalogue.get('europeana').manifest.id).toBe('europeana_images');
    expect(catalogue.catalogueEntry('europeana').name).toBe('europeana_images');
    expect(catalogue.ids()).not.toContain('europeana');
    // Configuration under the old id still applies; the current id wins where both are set.
    expect(catalogue.settings('europeana_images').apiKey).toBe('k-old');
    expect(catalogue.weight('europeana_images')).toBe(2);
    expect(catalogue.disabledReason('europeana_images')).toBeNull();
    const both = service({ europeana: { apiKey: 'k-old' }, europeana_images: { apiKey: 'k-new' } });
    expect(both.settings('europeana').apiKey).toBe('k-new');
  });

  it('refuses an alias that clashes with an engine id', () => {
    const clash = engines.map((e) =>
      e.manifest.id === 'europeana_images' ? { ...e, manifest: { ...e.manifest, aliases: ['bing'] } } : e,
    );
    expect(
      () => new EngineService(clash, { engines: {} }, noFetch, noParsing, new EngineHealth(), createLogger('silent')),
    ).toThrow(/alias "bing"/);
  });
});
