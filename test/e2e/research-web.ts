/**
 * The local web the agent and RAG tests run against: the sandbox web serves
 * the heat-pump pages (test/sandbox/research-pages.ts), a page that is gone
 * (404), and the gallery's images; a query-driven local engine lists them
 * (`local_web`, the default engine; `local_news` in the news group); bing_images
 * plays its recorded answer. `config()` gives the Quarry overrides.
 */
import { join } from 'node:path';
import type { ConfigInput } from '../../app/config.js';
import { PACKAGE_ROOT } from '../../core/paths.js';
import { startLocalSearch, type LocalDocument, type LocalSearch } from '../sandbox/local-search.js';
import { HEAT_PUMP_PAGES, OTHER_PAGES, renderResearchPage, type ResearchPage } from '../sandbox/research-pages.js';
import { startSandboxWeb, type SandboxWeb } from '../sandbox/sandbox-web.js';

export const GONE_PATH = '/heat-pumps/archived-buyers-guide';

export interface ResearchWeb {
  web: SandboxWeb;
  search: LocalSearch;
  url(path: string): string;
  /** Every page listed by the engine, as served. */
  pages: ResearchPage[];
  config(extra?: Record<string, unknown>): ConfigInput;
  close(): Promise<void>;
}

// A 1×1 JPEG is enough for image URLs to resolve.
const TINY_JPEG = Buffer.from(
  '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP////////////////////////////////////////////////////////////////////////' +
    '//////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=',
  'base64',
);

export async function startResearchWeb(): Promise<ResearchWeb> {
  const web = await startSandboxWeb();
  const pages = [...HEAT_PUMP_PAGES, ...OTHER_PAGES];
  for (const page of pages) web.addPage(page.path, renderResearchPage(page));
  web.addPage(GONE_PATH, 'This page is gone', { status: 404, contentType: 'text/plain' });
  web.addFile('/img/outdoor-unit.jpg', TINY_JPEG, 'image/jpeg');
  web.addFile('/img/ground-loop.jpg', TINY_JPEG, 'image/jpeg');
  web.playEngine('bing_images', {
    file: join(PACKAGE_ROOT, 'engines/bing_images/fixtures/async-tiger.html'),
    contentType: 'text/html',
  });
  const documents: LocalDocument[] = [
    ...pages.map((p) => ({
      url: web.url + p.path,
      title: p.title,
      text: p.paragraphs.join(' '),
      ...(p.published ? { published: p.published } : {}),
    })),
    {
      url: web.url + GONE_PATH,
      title: 'Heat pump buyers guide (archived)',
      text: 'How to choose a heat pump for your home: sizes, prices and efficiency.',
    },
  ];
  const search = await startLocalSearch(documents);
  return {
    web,
    search,
    pages,
    url: (path) => web.url + path,
    config: (extra = {}) =>
      ({
        customEngines: [search.engineConfig('local_web', ['general']), search.engineConfig('local_news', ['news'])],
        search: { defaultEngines: ['local_web'], defaultSingleEngine: 'local_web' },
        outbound: { allowHosts: [`127.0.0.1:${web.port}`, search.host] },
        // Built-in news engines point at the sandbox, which has no recording for them: keep them out.
        engines: Object.fromEntries(
          [
            'bing_news',
            'brave_news',
            'duckduckgo_news',
            'google_news',
            'guardian',
            'hackernews',
            'tagesschau',
            'wikinews',
            'yahoo_news',
            'yahoo_finance',
          ].map((id) => [id, { enabled: false }]),
        ),
        ...extra,
      }) as ConfigInput,
    async close() {
      await search.close();
      await web.close();
    },
  };
}
