import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { EngineParseError } from '../../core/engine.js';
import { runEngineConformance } from '../../test/contract/engine-conformance.js';
import {
  loadEngine,
  readFixture,
  testContext,
  testResponse,
  type LoadedTestEngine,
} from '../../test/contract/load-engine.js';
import { balancedObject } from './engine.js';

const engineDir = fileURLToPath(new URL('.', import.meta.url));

runEngineConformance(engineDir, { fixtures: [{ file: 'search-page.html', query: 'timelapse' }] });

describe('vimeo', () => {
  let loaded: LoadedTestEngine;
  beforeAll(async () => {
    loaded = await loadEngine(engineDir);
  });

  const parse = (body: string) => {
    const ctx = testContext(loaded.manifest, { query: 'timelapse' });
    const step = loaded.engine.parseResponse(testResponse(loaded.engine.buildRequest(ctx), body), ctx);
    if (!('results' in step)) throw new Error('expected results');
    return step.results;
  };

  it('reads the clips of the embedded data object', () => {
    const results = parse(readFixture(engineDir, 'search-page.html'));
    expect(results).toHaveLength(2);
    expect(results[0]).toEqual({
      url: 'https://vimeo.com/76979871',
      title: 'The Mountain {timelapse} "4K"',
      snippet: 'Filmed on El Teide, Tenerife.',
      publishedDate: '2013-10-15T08:21:29.000Z',
      author: 'TSO Photography',
      thumbnail: 'https://i.vimeocdn.com/video/452222_640x360?r=pad',
      extra: { duration: '3:08', durationSeconds: 188 },
    });
    expect(results[1]).toMatchObject({
      url: 'https://vimeo.com/512000111',
      title: 'City lights & traffic',
      extra: { duration: '1:02:05' },
    });
    expect(results[1]).not.toHaveProperty('thumbnail');
  });

  it('scans balanced objects across strings', () => {
    expect(balancedObject('x = {"a":"}{","b":{"c":"\\"}"}};', 4)).toBe('{"a":"}{","b":{"c":"\\"}"}}');
  });

  it('raises a parse error for a page without the data object', () => {
    expect(() => parse('<html><body>Something went wrong</body></html>')).toThrow(EngineParseError);
  });

  it('pages through /search/page:<n>', () => {
    const ctx = (page: number) => testContext(loaded.manifest, { query: 'time lapse', page });
    expect(loaded.engine.buildRequest(ctx(1)).url).toBe('https://vimeo.com/search?q=time+lapse');
    expect(loaded.engine.buildRequest(ctx(3)).url).toBe('https://vimeo.com/search/page:3?q=time+lapse');
  });
});
