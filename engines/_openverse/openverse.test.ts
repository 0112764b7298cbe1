import { describe, expect, it } from 'vitest';
import { EngineParseError, EngineRateLimitedError, type EngineQuery, type EngineSettings } from '../../core/engine.js';
import { testResponse } from '../../test/contract/load-engine.js';
import { openverseLicense, openverseRequest, openverseResults } from './openverse.js';

const settings: EngineSettings = { baseUrl: 'https://api.openverse.org', options: {} };
const query: EngineQuery = { query: 'aurora', page: 2, language: 'en', safeSearch: 0 };

describe('the Openverse family', () => {
  const request = openverseRequest(settings, 'images', query);

  it('searches one media type, asking for sensitive results only with safe search off', () => {
    expect(Object.fromEntries(new URL(request.url).searchParams)).toEqual({
      q: 'aurora',
      page: '2',
      page_size: '20',
      include_sensitive_results: 'true',
    });
    expect(
      new URL(openverseRequest(settings, 'audio', { ...query, safeSearch: 1 }).url).searchParams.has(
        'include_sensitive_results',
      ),
    ).toBe(false);
  });

  it('reads 429 as rate limited and an answer without results as a parse error with its detail', () => {
    expect(() =>
      openverseResults(testResponse(request, '{"detail":"slow down"}', 'application/json', 429), 'openverse_images'),
    ).toThrow(EngineRateLimitedError);
    expect(() =>
      openverseResults(testResponse(request, '{"detail":"Invalid page"}', 'application/json', 400), 'openverse_images'),
    ).toThrow(new EngineParseError('openverse_images answered without results: Invalid page'));
    expect(
      openverseResults(testResponse(request, '{"results":[{"id":"a"}]}', 'application/json'), 'openverse_images'),
    ).toEqual([{ id: 'a' }]);
  });

  it('names licences as Creative Commons writes them', () => {
    expect(openverseLicense('by-sa', '3.0')).toBe('CC BY-SA 3.0');
    expect(openverseLicense('cc0', '1.0')).toBe('CC0 1.0');
    expect(openverseLicense('pdm', '')).toBe('PDM');
    expect(openverseLicense(undefined, '4.0')).toBeUndefined();
  });
});
