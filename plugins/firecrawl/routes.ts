/**
 * Where the Firecrawl surface is served: `<base>/firecrawl/v2/…` and `/v1/…`
 * (point a client's apiUrl at `<base>/firecrawl`), the same routes also under
 * `/api/v1/firecrawl` like every other area.
 */
export const FIRECRAWL_MOUNT = '/firecrawl';
const API_MOUNT = '/api/v1/firecrawl';

export type FirecrawlVersion = 'v1' | 'v2';

/** A capability's path and its alias for one version's route (`/scrape`, `/crawl/:id`). */
export function firecrawlRoute(
  version: FirecrawlVersion,
  route: string,
  more: string[] = [],
): { path: string; aliases: string[] } {
  const routes = [route, ...more];
  return {
    path: `${API_MOUNT}/${version}${route}`,
    aliases: [
      ...routes.slice(1).map((r) => `${API_MOUNT}/${version}${r}`),
      ...routes.map((r) => `${FIRECRAWL_MOUNT}/${version}${r}`),
    ],
  };
}
