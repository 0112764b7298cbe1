/**
 * Crawl and map as jobs. A call with `async: true` answers at once with a job
 * id and status URL (202), and the answer it would have given is kept with the
 * job, read at GET /api/v1/agent/{crawl,map}/jobs/:job_id; a call without it
 * answers directly, as Tavily's does. Being jobs, both also run as MCP tasks
 * for clients that opt in (hosts/mcp/tool-tasks.ts), like research.
 */
import type { AgentServices } from './uses.js';
import type { z } from 'zod';
import type { CallContext, CapabilityDefinition } from '../../core/capability.js';
import { jobSurface } from '../../services/jobs/job-capability.js';
import { standardJobForm } from '../../services/jobs/job-view.js';
import { renderJobAccepted, renderJobState } from '../../services/markdown/job-state.js';
import type { LinkPolicy } from '../../services/markdown/escape.js';
import { agentCrawl } from './crawl.js';
import {
  agentCrawlInputSchema,
  agentCrawlOutputSchema,
  agentMapInputSchema,
  agentMapOutputSchema,
  type AgentCrawlInput,
  type AgentMapInput,
} from './crawl-schemas.js';
import { agentMap } from './map.js';
import { renderCrawl, renderMap } from './render.js';
import { agentJobInputSchema } from './schemas.js';

export const CRAWL_JOB = 'agent.crawl';
export const MAP_JOB = 'agent.map';

/** Tavily's clients read the message of a failed call from detail.error. */
export const tavilyError = (error: { message: string }) => ({ detail: { error: error.message } });

type JobProgress = { signal: AbortSignal; progress(p: { progress: number; total?: number; message?: string }): void };

/** The job handlers: the same work as a direct call, with the job's signal and progress. */
export function siteJobHandlers(
  services: AgentServices,
): Record<string, (input: unknown, job: JobProgress) => Promise<unknown>> {
  const context = (kind: string, job: JobProgress): CallContext => ({
    signal: job.signal,
    progress: job.progress,
    logger: services.logger.child({ job: kind }),
    host: 'job',
  });
  return {
    [CRAWL_JOB]: (input, job) => agentCrawl(services, input as AgentCrawlInput, context(CRAWL_JOB, job)),
    [MAP_JOB]: (input, job) => agentMap(services, input as AgentMapInput, context(MAP_JOB, job)),
  };
}

/** The line for an accepted job; undefined for a finished answer (it has results). */
const accepted = (label: string, out: unknown): string | undefined => {
  const answer = out as { job_id: string; status_url: string; results?: unknown };
  return answer.results === undefined
    ? renderJobAccepted(label, { job_id: answer.job_id, status_url: answer.status_url })
    : undefined;
};

/** The job surface of one site job (crawl or map): its kind, answer form and status route. */
function siteJobSurface<O extends z.ZodType>(
  services: AgentServices,
  what: 'crawl' | 'map',
  output: O,
  statusDescription: string,
) {
  const label = what === 'crawl' ? 'Crawl' : 'Map';
  return jobSurface(services.jobs, {
    kind: what === 'crawl' ? CRAWL_JOB : MAP_JOB,
    form: standardJobForm(output),
    statusRoute: {
      id: `agent.${what}_status`,
      title: `${label} job status`,
      description: statusDescription,
      mcpTool: `agent_${what}_status`,
      path: `/api/v1/agent/${what}/jobs/:job_id`,
      idField: 'job_id',
      input: agentJobInputSchema,
      noun: `${what} job`,
      errorBody: tavilyError,
    },
  });
}

/** agent.crawl and agent.map with their status capabilities. */
export function siteCapabilities(
  services: AgentServices,
  linkPolicy: LinkPolicy,
): CapabilityDefinition<z.ZodType, z.ZodType>[] {
  const crawlJobs = siteJobSurface(
    services,
    'crawl',
    agentCrawlOutputSchema,
    'Status, progress and, once finished, the pages of a crawl started with async: true.',
  );
  const mapJobs = siteJobSurface(
    services,
    'map',
    agentMapOutputSchema,
    'Status, progress and, once finished, the URLs of a map started with async: true.',
  );

  const crawl = crawlJobs.capability({
    id: 'agent.crawl',
    title: 'Crawl a site and read its pages',
    description:
      "Follow a site's links breadth-first from a URL (max_depth hops, max_breadth links per page, limit " +
      'pages; regex filters on paths and domains; robots.txt respected) ' +
      "and return each page's main content as markdown or text. With instructions, pages are ranked by " +
      'relevance to them and unrelated ones dropped. ' +
      'Sends progress per page read; async: true answers at once with a job id and status URL. ' +
      'Tavily-compatible (POST /crawl).',
    input: agentCrawlInputSchema,
    output: agentCrawlOutputSchema,
    http: { method: 'POST', path: '/api/v1/agent/crawl' },
    mcpTool: 'agent_crawl',
    readOnly: true,
    errorBody: tavilyError,
    toMarkdown: (out) =>
      accepted('Crawl', out) ?? renderCrawl(out as z.infer<typeof agentCrawlOutputSchema>, linkPolicy),
    runsAsJob: (input) => input.async,
    run: (input, ctx) => agentCrawl(services, input, ctx),
    submission: (input) => ({ input: { ...input, async: false } }),
  });

  const map = mapJobs.capability({
    id: 'agent.map',
    title: "Map a site's URLs",
    description:
      'List the URLs of a site by following its links breadth-first from a URL (same bounds and filters as ' +
      'agent_crawl, without reading page content). ' +
      'With instructions, only URLs whose words relate to them, best first. Sends progress per page read; ' +
      'async: true answers at once with a job id and status URL. ' +
      'Tavily-compatible (POST /map).',
    input: agentMapInputSchema,
    output: agentMapOutputSchema,
    http: { method: 'POST', path: '/api/v1/agent/map' },
    mcpTool: 'agent_map',
    readOnly: true,
    errorBody: tavilyError,
    toMarkdown: (out) => accepted('Map', out) ?? renderMap(out as z.infer<typeof agentMapOutputSchema>),
    runsAsJob: (input) => input.async,
    run: (input, ctx) => agentMap(services, input, ctx),
    submission: (input) => ({ input: { ...input, async: false } }),
  });

  const crawlStatus = crawlJobs.statusCapability({
    toMarkdown: (out) => (out.result ? renderCrawl(out.result, linkPolicy) : renderJobState('Crawl', out)),
  });
  const mapStatus = mapJobs.statusCapability({
    toMarkdown: (out) => (out.result ? renderMap(out.result) : renderJobState('Map', out)),
  });
  return [crawl, crawlStatus, map, mapStatus] as CapabilityDefinition<z.ZodType, z.ZodType>[];
}
