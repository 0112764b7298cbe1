/**
 * docs/configuration.md is generated from the configuration schema (scripts/config-docs): it is regenerated here
 * in memory and must equal the file, so a setting added, removed or changed without `npm run docs:config` fails.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  CONFIGURATION_DOC,
  configSettings,
  configurationReference,
  environmentVariables,
} from '../../scripts/config-docs/reference.js';

describe('docs/configuration.md', () => {
  const settings = configSettings();

  it('is what `npm run docs:config` writes from the schema today', () => {
    expect(readFileSync(CONFIGURATION_DOC, 'utf8'), 'docs/configuration.md is stale: run npm run docs:config').toBe(
      configurationReference(settings),
    );
  });

  it('lists every setting with its default, variables and meaning, sections services declare included', () => {
    const byPath = new Map(settings.map((s) => [s.path, s]));
    expect(byPath.get('port')).toMatchObject({ defaultValue: '8080', env: [{ name: 'QUARRY_PORT', list: false }] });
    expect(byPath.get('docsRequireKey')).toMatchObject({
      defaultValue: 'false',
      env: [{ name: 'QUARRY_DOCS_REQUIRE_KEY', list: false }],
    });
    expect(byPath.get('docsRequireKey')?.meaning).toMatch(/behind the API key/);
    expect(byPath.get('apiKeys')?.env).toEqual([{ name: 'QUARRY_API_KEYS', list: true }]);
    // Sections from services: the knowledge graph, the LLM tiers (a model is required once a tier is given), engine
    // switches.
    expect(byPath.get('knowledge.feedFromPages')).toMatchObject({
      defaultValue: 'false',
      env: [{ name: 'QUARRY_KNOWLEDGE_FEED_FROM_PAGES', list: false }],
    });
    expect(byPath.get('knowledge.feedFromPages')?.meaning).toMatch(/Feed the graph/);
    expect(byPath.get('llm.fast.model')).toMatchObject({
      required: true,
      env: [{ name: 'QUARRY_LLM_MODEL', list: false }],
    });
    expect(byPath.get('models.reranker.topK')?.meaning).toMatch(/best passages/);
    expect(byPath.get('engines.<id>.enabled')).toBeDefined();
    // The home directory is written as ~, so the page is the same on every machine.
    expect(byPath.get('dataDir')?.defaultValue).toBe('"~/.quarry"');
  });

  it('describes every setting: a setting without a doc comment fails here, by name', () => {
    const undescribed = settings.filter((s) => !s.meaning).map((s) => s.path);
    expect(
      undescribed,
      'give these settings a /** doc comment */ where the schema declares them, then run npm run docs:config',
    ).toEqual([]);
  });

  it('finds variables that stand in when another is unset', () => {
    const env = environmentVariables();
    expect(env.get('outbound.proxy')?.map((e) => e.name)).toEqual(['QUARRY_PROXY', 'HTTPS_PROXY', 'https_proxy']);
    expect(env.get('redisUrl')?.map((e) => e.name)).toEqual(['QUARRY_REDIS_URL', 'REDIS_URL']);
  });
});
