/**
 * The local web the Firecrawl tests that map and search run against: the quarry-stone site
 * (test/sandbox/firecrawl-site.ts) with a robots.txt that disallows `/fc/private/`, a local search
 * engine listing some of its pages, and Quarry in process with that engine as its default.
 */
import type { ConfigInput } from '../../app/config.js';
import { addFirecrawlSite, sitePagePath } from '../sandbox/firecrawl-site.js';
import { startLocalSearch, type LocalSearch } from '../sandbox/local-search.js';
import { startSandboxWeb, type SandboxWeb } from '../sandbox/sandbox-web.js';
import { startQuarry, type RunningQuarry } from './harness.js';

export interface FirecrawlWeb {
  web: SandboxWeb;
  search: LocalSearch;
  quarry: RunningQuarry;
  close(): Promise<void>;
}

export interface FirecrawlWebOptions {
  pages: number;
  privatePages: number;
  /** Indexes of the site's pages the engine lists. */
  listed: number[];
  /** The local engines, by id and category; default one general engine, `local_web`. */
  engines?: Array<[id: string, categories: string[]]>;
  /** Further settings over the sandbox's and the engines'. */
  config?: ConfigInput;
}

export async function startFirecrawlWeb(options: FirecrawlWebOptions): Promise<FirecrawlWeb> {
  const web = await startSandboxWeb();
  addFirecrawlSite(web, { pages: options.pages, privatePages: options.privatePages });
  web.setRobots('User-agent: *\nDisallow: /fc/private/\n');
  const search = await startLocalSearch(
    options.listed.map((i) => ({
      url: `${web.url}${sitePagePath(i)}`,
      title: `Quarry stone ${i}`,
      text: 'how slabs are sawn with diamond wire at the quarry',
    })),
  );
  const engines = options.engines ?? [['local_web', ['general']]];
  const quarry = await startQuarry(web, {
    customEngines: engines.map(([id, categories]) => search.engineConfig(id, categories)) as never,
    search: { defaultEngines: ['local_web'], defaultSingleEngine: 'local_web' },
    outbound: { allowHosts: [`127.0.0.1:${web.port}`, search.host] },
    ...options.config,
  });
  return {
    web,
    search,
    quarry,
    async close() {
      await quarry.close();
      await search.close();
      await web.close();
    },
  };
}
