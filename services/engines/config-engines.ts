/**
 * Engines declared entirely in configuration, for sites with a simple JSON
 * API or result page: a URL template plus JSON paths ("json") or CSS
 * selectors ("html"). They load like any engine and pass the same checks.
 *
 * URL template placeholders: {query} (URL-encoded), {page} (1-based),
 * {offset} (0-based: (page-1) × pageSize), {pageSize}, {language}.
 * JSON paths: dot paths with [n] indexes ("data.items", "links[0].href").
 * Selectors: CSS; "selector@attr" reads an attribute instead of the text.
 */
import { fileURLToPath } from 'node:url';
import { parseHTML } from 'linkedom';
import { z } from 'zod';
import {
  defineEngine,
  EngineParseError,
  stripMarkup,
  type EngineDefinition,
  type EngineManifest,
  type EngineResult,
} from '../../core/engine.js';
import type { LoadedEngine } from '../../core/engine.js';

const common = {
  id: z.string().regex(/^[a-z][a-z0-9_]*$/),
  name: z.string().min(1),
  categories: z
    .array(
      z.enum([
        'general',
        'news',
        'academic',
        'images',
        'video',
        'it',
        'maps',
        'music',
        'files',
        'reference',
        'social',
        'science',
        'shopping',
        'finance',
      ]),
    )
    .min(1)
    .default(['general']),
  urlTemplate: z.string().regex(/^https?:\/\/.+\{query\}/, 'must be an http(s) URL containing {query}'),
  website: z
    .string()
    .regex(/^https?:\/\//)
    .optional(),
  pageSize: z.int().min(1).max(100).default(10),
  paging: z.boolean().default(false),
  weight: z.number().positive().max(10).default(1),
  headers: z.record(z.string(), z.string()).default({}),
};

export const configEngineSchema = z.discriminatedUnion('type', [
  z.strictObject({
    ...common,
    type: z.literal('json'),
    results: z.string().min(1).describe('path of the results array'),
    fields: z.strictObject({
      url: z.string(),
      title: z.string(),
      snippet: z.string().optional(),
      publishedDate: z.string().optional(),
      thumbnail: z.string().optional(),
    }),
  }),
  z.strictObject({
    ...common,
    type: z.literal('html'),
    selectors: z.strictObject({
      result: z.string(),
      url: z.string(),
      title: z.string(),
      snippet: z.string().optional(),
      thumbnail: z.string().optional(),
    }),
  }),
]);
export type ConfigEngine = z.infer<typeof configEngineSchema>;

/** Reads "a.b[0].c" from a JSON value. */
export function readPath(value: unknown, path: string): unknown {
  let current: unknown = value;
  for (const part of path.split('.').filter(Boolean)) {
    const match = /^([^[\]]*)((?:\[\d+\])*)$/.exec(part);
    if (!match) return undefined;
    if (match[1])
      current = current && typeof current === 'object' ? (current as Record<string, unknown>)[match[1]] : undefined;
    for (const index of match[2]!.matchAll(/\[(\d+)\]/g))
      current = Array.isArray(current) ? current[Number(index[1])] : undefined;
  }
  return current;
}

function absolute(url: unknown, base: string): string | null {
  if (typeof url !== 'string' || !url.trim()) return null;
  try {
    const parsed = new URL(url.trim(), base);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : null;
  } catch {
    return null;
  }
}

function selectValue(root: Element, spec: string): string | null {
  const [selector, attribute] = spec.split('@') as [string, string | undefined];
  const element = selector ? root.querySelector(selector) : root;
  if (!element) return null;
  return attribute ? element.getAttribute(attribute) : element.textContent;
}

/**
 * The definition of a config-declared engine; also what a worker thread calls to parse its answers
 * (`moduleRef.factory`).
 */
export function configEngineDefinition(engine: ConfigEngine): EngineDefinition {
  return defineEngine({
    buildRequest({ query, settings }) {
      const page = engine.paging ? query.page : 1;
      const template = engine.urlTemplate.replace(/^https?:\/\/[^/]+/, settings.baseUrl);
      const url = template
        .replaceAll('{query}', encodeURIComponent(query.query))
        .replaceAll('{page}', String(page))
        .replaceAll('{offset}', String((page - 1) * engine.pageSize))
        .replaceAll('{pageSize}', String(engine.pageSize))
        .replaceAll('{language}', encodeURIComponent(query.language));
      return { method: 'GET', url, headers: engine.headers };
    },
    parseResponse(response) {
      const results: EngineResult[] = [];
      if (engine.type === 'json') {
        let data: unknown;
        try {
          data = JSON.parse(response.body);
        } catch {
          throw new EngineParseError(`engine ${engine.id}: the response is not JSON`);
        }
        const items = readPath(data, engine.results);
        if (items === undefined) return { results: [] };
        if (!Array.isArray(items))
          throw new EngineParseError(`engine ${engine.id}: "${engine.results}" is not an array`);
        for (const item of items) {
          const url = absolute(readPath(item, engine.fields.url), response.url);
          const title = stripMarkup(String(readPath(item, engine.fields.title) ?? ''));
          if (!url || !title) continue;
          const result: EngineResult = {
            url,
            title,
            snippet: engine.fields.snippet ? stripMarkup(String(readPath(item, engine.fields.snippet) ?? '')) : '',
          };
          const date = engine.fields.publishedDate ? readPath(item, engine.fields.publishedDate) : undefined;
          if (typeof date === 'string' && !Number.isNaN(Date.parse(date)))
            result.publishedDate = new Date(date).toISOString();
          const thumbnail = engine.fields.thumbnail
            ? absolute(readPath(item, engine.fields.thumbnail), response.url)
            : null;
          if (thumbnail) result.thumbnail = thumbnail;
          results.push(result);
        }
        return { results };
      }
      const { document } = parseHTML(response.body);
      for (const node of Array.from(document.querySelectorAll(engine.selectors.result))) {
        const url = absolute(selectValue(node as Element, engine.selectors.url), response.url);
        const title = stripMarkup(selectValue(node as Element, engine.selectors.title) ?? '');
        if (!url || !title) continue;
        const result: EngineResult = {
          url,
          title,
          snippet: engine.selectors.snippet
            ? stripMarkup(selectValue(node as Element, engine.selectors.snippet) ?? '')
            : '',
        };
        const thumbnail = engine.selectors.thumbnail
          ? absolute(selectValue(node as Element, engine.selectors.thumbnail), response.url)
          : null;
        if (thumbnail) result.thumbnail = thumbnail;
        results.push(result);
      }
      return { results };
    },
  });
}

export function loadConfigEngine(engine: ConfigEngine): LoadedEngine {
  const origin = new URL(engine.urlTemplate.replace(/\{[a-zA-Z]+\}/g, 'x')).origin;
  const manifest: EngineManifest = {
    id: engine.id,
    kind: 'engine',
    version: '0.1.0',
    core: '^0.1.0',
    name: engine.name,
    categories: engine.categories,
    weight: engine.weight,
    baseUrl: origin,
    supports: {
      paging: engine.paging,
      maxPage: 0,
      timeRange: false,
      safeSearch: false,
      languages: engine.urlTemplate.includes('{language}'),
      autocomplete: false,
    },
    languages: ['all'],
    about: {
      website: engine.website ?? origin,
      officialApi: engine.type === 'json',
      results: engine.type === 'json' ? 'JSON' : 'HTML',
      requiresApiKey: false,
      resultKind: 'web',
      verifiedOn: 'documented',
      notes: 'declared in configuration',
    },
  };
  const moduleRef = { module: fileURLToPath(import.meta.url), factory: 'configEngineDefinition', spec: engine };
  return { manifest, definition: configEngineDefinition(engine), moduleRef, dir: '(config)', source: 'config' };
}
