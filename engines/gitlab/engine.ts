/** GitLab project search through the REST API v4 (/projects?search=, JSON). */
import {
  defineEngine,
  EngineAccessDeniedError,
  EngineParseError,
  EngineRateLimitedError,
  type EngineResult,
} from '../../core/engine.js';

const PAGE_SIZE = 10;

interface Project {
  id?: number;
  name?: string;
  name_with_namespace?: string;
  path_with_namespace?: string;
  description?: string | null;
  web_url?: string;
  star_count?: number;
  forks_count?: number;
  last_activity_at?: string;
  avatar_url?: string | null;
  topics?: string[];
  namespace?: { name?: string };
}

function projectToResult(project: Project): EngineResult | undefined {
  if (!project.web_url || !/^https?:\/\//.test(project.web_url)) return undefined;
  const title = project.name_with_namespace ?? project.path_with_namespace ?? project.name;
  if (!title) return undefined;
  return {
    url: project.web_url,
    title,
    snippet: (project.description ?? '').replace(/\s+/g, ' ').trim(),
    publishedDate: project.last_activity_at,
    author: project.namespace?.name,
    thumbnail: project.avatar_url ?? undefined,
    extra: { stars: project.star_count, forks: project.forks_count, topics: project.topics ?? [] },
  };
}

export default defineEngine({
  buildRequest(ctx) {
    const base = ctx.settings.baseUrl.replace(/\/+$/, '');
    const params = new URLSearchParams({
      search: ctx.query.query,
      page: String(ctx.query.page),
      per_page: String(PAGE_SIZE),
      order_by: 'star_count',
      sort: 'desc',
    });
    const headers: Record<string, string> = ctx.settings.apiKey ? { 'private-token': ctx.settings.apiKey } : {};
    return { method: 'GET', url: `${base}/api/v4/projects?${params}`, headers };
  },

  parseResponse(response) {
    if (response.status === 429) throw new EngineRateLimitedError();
    if (response.status === 401 || response.status === 403)
      throw new EngineAccessDeniedError(`gitlab answered HTTP ${response.status}`);
    let projects: unknown;
    try {
      projects = JSON.parse(response.body);
    } catch {
      throw new EngineParseError('gitlab did not answer JSON');
    }
    if (!Array.isArray(projects)) throw new EngineParseError('gitlab did not answer a list of projects');
    return { results: (projects as Project[]).map(projectToResult).filter((result) => result !== undefined) };
  },
});
