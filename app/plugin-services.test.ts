import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../core/paths.js';
import { SERVICE_NAMES, servicesFor, undeclaredServices, type PluginServices } from './plugin-services.js';

const PLUGINS = join(PACKAGE_ROOT, 'plugins');
const areas = readdirSync(PLUGINS).filter((name) => existsSync(join(PLUGINS, name, 'plugin.json')));

/** A stand-in for the composition root's services: each entry a distinct marker. */
const all = Object.fromEntries(SERVICE_NAMES.map((name) => [name, { service: name }])) as unknown as PluginServices;

describe('plugins declare the services they use', () => {
  it.each(areas)(
    'plugin %s lists in its code exactly the services its manifest declares',
    async (area) => {
      const manifest = JSON.parse(readFileSync(join(PLUGINS, area, 'plugin.json'), 'utf8')) as {
        id: string;
        uses: string[];
      };
      const plugin = (
        (await import(pathToFileURL(join(PLUGINS, area, 'index.ts')).href)) as { default: { uses: readonly string[] } }
      ).default;
      expect(manifest.uses.length).toBeGreaterThan(0);
      expect(undeclaredServices(manifest.id, manifest.uses, plugin.uses)).toEqual([]);
    },
    60_000,
  );

  it('names in plugin.schema.json the same services PluginServices has', () => {
    const schema = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'plugin.schema.json'), 'utf8')) as {
      properties: { uses: { items: { enum: string[] } } };
    };
    expect([...schema.properties.uses.items.enum].sort()).toEqual([...SERVICE_NAMES].sort());
  });

  it('hands a plugin its declared services and no other key', () => {
    const given = servicesFor('rag', all, ['webSearch', 'jobs'], ['jobs', 'webSearch']);
    expect(Object.keys(given).sort()).toEqual(['jobs', 'webSearch']);
    expect(given.jobs).toBe(all.jobs);
  });

  it('stops start-up when the code uses a service its manifest does not declare, naming both', () => {
    expect(() => servicesFor('rag', all, ['webSearch'], ['webSearch', 'scraper'])).toThrow(
      /plugin "rag" uses the service "scraper", which its manifest/,
    );
    expect(() => servicesFor('rag', all, ['webSearch', 'jobs'], ['webSearch'])).toThrow(
      /plugin "rag" declares the service "jobs" in its manifest/,
    );
    expect(() => servicesFor('rag', all, ['webSearch'], undefined)).toThrow(/declares the service "webSearch"/);
    expect(() => servicesFor('rag', all, ['crystalBall'], ['crystalBall'])).toThrow(
      /plugin "rag" declares the service "crystalBall", which does not exist/,
    );
  });
});
