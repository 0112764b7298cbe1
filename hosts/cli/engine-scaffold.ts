/**
 * quarry engine new <id>: a new engine folder with manifest, TypeScript
 * engine, a hand-made fixture and a test, ready for `npm test`.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const ID = /^[a-z][a-z0-9_]*$/;

function files(id: string, coreImport: string, contractImport: string): Record<string, string> {
  const name = id.replace(/_/g, ' ').replace(/\b\w/g, (c) => c.toUpperCase());
  return {
    'plugin.json': `${JSON.stringify(
      {
        $schema: `${coreImport}/plugin.schema.json`,
        id,
        kind: 'engine',
        version: '0.1.0',
        core: '^0.1.0',
        name,
        description: `TODO: what ${name} searches.`,
        categories: ['general'],
        weight: 1,
        baseUrl: 'https://api.example.com',
        timeoutMs: 5000,
        supports: {
          paging: true,
          maxPage: 10,
          timeRange: false,
          safeSearch: false,
          languages: false,
          autocomplete: false,
        },
        languages: ['all'],
        about: {
          website: 'https://example.com',
          officialApi: true,
          results: 'JSON',
          requiresApiKey: false,
          resultKind: 'web',
          verifiedOn: 'documented',
          notes: 'TODO: say how the parser was verified (a real capture, or the documented format only).',
        },
      },
      null,
      2,
    )}\n`,
    'engine.ts': `/** ${name}: TODO one line on the endpoint this engine queries. */
import { defineEngine, EngineParseError, stripMarkup, type EngineResult } from '${coreImport}/core/engine.js';

const PAGE_SIZE = 10;

interface ApiAnswer {
  items?: Array<{ url?: string; title?: string; description?: string }>;
}

export default defineEngine({
  buildRequest({ query, settings }) {
    const params = new URLSearchParams({ q: query.query, offset: String((query.page - 1) * PAGE_SIZE), limit: String(PAGE_SIZE) });
    return { method: 'GET', url: \`\${settings.baseUrl}/search?\${params}\`, headers: { accept: 'application/json' } };
  },

  parseResponse(response) {
    let data: ApiAnswer;
    try {
      data = JSON.parse(response.body) as ApiAnswer;
    } catch {
      throw new EngineParseError('${id}: the answer is not JSON');
    }
    const results: EngineResult[] = [];
    for (const item of data.items ?? []) {
      if (!item.url || !/^https?:\\/\\//.test(item.url) || !item.title) continue;
      results.push({ url: item.url, title: stripMarkup(item.title), snippet: stripMarkup(item.description ?? '') });
    }
    return { results };
  },
});
`,
    'fixtures/search.json': `${JSON.stringify(
      {
        items: [
          { url: 'https://example.com/first', title: 'First <b>result</b>', description: 'The first result.' },
          { url: 'https://example.com/second', title: 'Second result', description: 'The second result.' },
        ],
      },
      null,
      2,
    )}\n`,
    'fixtures/PROVENANCE.md':
      '# Provenance\n\n`search.json`: hand-made from the documented answer format. Replace it with a real ' +
      'capture (and name its source and licence here) when you can.\n',
    'engine.test.ts': `import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runEngineConformance } from '${contractImport}/engine-conformance.js';
import { loadEngine } from '${contractImport}/load-engine.js';

const dir = new URL('.', import.meta.url).pathname;

runEngineConformance(dir, { fixtures: [{ file: 'search.json', query: 'result', contentType: 'application/json' }] });

describe('${id}', () => {
  it('parses the fixture', async () => {
    const { manifest, engine: definition } = await loadEngine(dir);
    const ctx = { query: { query: 'result', page: 1, language: 'en', safeSearch: 1 as const }, settings: { baseUrl: manifest.baseUrl, options: {} }, manifest };
    const request = definition.buildRequest(ctx);
    const step = definition.parseResponse({ status: 200, headers: {}, body: readFileSync(new URL('fixtures/search.json', import.meta.url), 'utf8'), url: request.url, request }, ctx);
    expect('results' in step && step.results.map((r) => r.title)).toEqual(['First result', 'Second result']);
  });
});
`,
  };
}

export function scaffoldEngine(id: string, targetRoot: string, packageRoot: string): string {
  if (!ID.test(id)) throw new Error(`engine ids match ${ID} (lower-case letters, digits, underscores), got "${id}"`);
  const dir = resolve(targetRoot, id);
  if (existsSync(dir)) throw new Error(`${dir} already exists`);
  const coreImport = relative(dir, packageRoot) || '.';
  const contractImport = relative(dir, join(packageRoot, 'test', 'contract')) || '.';
  for (const [name, content] of Object.entries(files(id, coreImport, contractImport))) {
    const path = join(dir, name);
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, content);
  }
  return dir;
}
