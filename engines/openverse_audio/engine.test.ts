import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { EngineParseError, EngineRateLimitedError } from '../../core/engine.js';
import { runEngineConformance } from '../../test/contract/engine-conformance.js';
import {
  loadEngine,
  readFixture,
  testContext,
  testResponse,
  type LoadedTestEngine,
} from '../../test/contract/load-engine.js';
import { openverseLicense } from '../_openverse/openverse.js';

const engineDir = fileURLToPath(new URL('.', import.meta.url));
const JSON_TYPE = 'application/json';

runEngineConformance(engineDir, {
  fixtures: [
    { file: 'audio-search-piano.json', query: 'piano', contentType: JSON_TYPE },
    { file: 'audio-search-empty.json', query: 'qwxzqwxz', contentType: JSON_TYPE, expectResults: false },
  ],
});

describe('openverse_audio', () => {
  let loaded: LoadedTestEngine;
  beforeAll(async () => {
    loaded = await loadEngine(engineDir);
  });

  const parse = (body: string, status = 200) => {
    const ctx = testContext(loaded.manifest, { query: 'piano' });
    const step = loaded.engine.parseResponse(
      testResponse(loaded.engine.buildRequest(ctx), body, JSON_TYPE, status),
      ctx,
    );
    if (!('results' in step)) throw new Error('expected results');
    return step.results;
  };

  it('parses tracks with audio URL, duration and licence (hand-made fixture)', () => {
    const results = parse(readFixture(engineDir, 'audio-search-piano.json'));
    expect(results).toHaveLength(3);
    expect(results[0]).toEqual({
      url: 'https://www.jamendo.com/track/1234567',
      title: 'Morning Piano Etude',
      snippet: 'classical, piano · music · CC BY-SA 3.0',
      author: 'Jane Example',
      thumbnail: 'https://api.openverse.org/v1/audio/8624ba61-57f1-4f98-8a85-ece206c319cf/thumb/',
      extra: {
        audioUrl: 'https://prod-1.storage.jamendo.com/download/track/1234567/mp32/',
        duration: 184000,
        durationSeconds: 184,
        fileType: 'mp32',
        license: 'CC BY-SA 3.0',
        licenseUrl: 'https://creativecommons.org/licenses/by-sa/3.0/',
        source: 'jamendo',
        genres: ['classical', 'piano'],
      },
    });
    expect(results[1]).toMatchObject({
      title: 'piano chord & reverb',
      snippet: 'sound_effect · CC0 1.0',
      extra: {
        duration: 3500,
        durationSeconds: 4,
        license: 'CC0 1.0',
        audioUrl: 'https://cdn.freesound.org/previews/345/345678_1234-hq.mp3',
      },
    });
    expect(results[1]!.thumbnail).toBeUndefined();
    // No title: the landing page stands in; nothing is invented for missing fields.
    expect(results[2]).toMatchObject({
      url: 'https://ccmixter.org/files/example/65432',
      title: 'https://ccmixter.org/files/example/65432',
      snippet: 'CC BY-NC 4.0',
    });
    expect(results[2]!.author).toBeUndefined();
    expect(results[2]!.extra).not.toHaveProperty('duration');
  });

  it('types error answers', () => {
    expect(() => parse('{"detail":"Invalid page_size"}', 400)).toThrow(EngineParseError);
    expect(() => parse('{"detail":"Request was throttled."}', 429)).toThrow(EngineRateLimitedError);
    expect(openverseLicense('pdm', '')).toBe('PDM');
  });

  it('pages and lets sensitive results in only with safe search off', () => {
    const off = loaded.engine.buildRequest(
      testContext(loaded.manifest, { query: 'lo-fi beats', page: 2, safeSearch: 0 }),
    );
    expect(off.url).toBe(
      'https://api.openverse.org/v1/audio/?q=lo-fi+beats&page=2&page_size=20&include_sensitive_results=true',
    );
    const on = loaded.engine.buildRequest(testContext(loaded.manifest, { query: 'lo-fi beats' }));
    expect(on.url).toBe('https://api.openverse.org/v1/audio/?q=lo-fi+beats&page=1&page_size=20');
  });
});
