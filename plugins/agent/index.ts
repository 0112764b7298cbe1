/**
 * The agent area (/api/v1/agent): Tavily-compatible search, extract, crawl and
 * map (site-jobs.ts: also as jobs), and multi-step research. Point Tavily's clients at `<base>/api/v1/agent`.
 */
import { AGENT_USES, type AgentServices } from './uses.js';
import { defineCapability } from '../../core/capability.js';
import { definePlugin } from '../../app/plugin-services.js';
import { jobSurface } from '../../services/jobs/job-capability.js';
import { standardJobForm } from '../../services/jobs/job-view.js';
import { agentExtract } from './extract.js';
import { outboundLinkPolicy } from '../../services/markdown/link-policy.js';
import { renderJobAccepted, renderJobState } from '../../services/markdown/job-state.js';
import { renderExtract, renderResearch, renderSearch } from './render.js';
import { agentResearch } from './research.js';
import {
  agentExtractInputSchema,
  agentExtractOutputSchema,
  agentResearchInputSchema,
  agentResearchReportSchema,
  agentSearchInputSchema,
  agentSearchOutputSchema,
  agentJobInputSchema,
  type AgentResearchInput,
  type AgentResearchReport,
} from './schemas.js';
import { agentSearch } from './search.js';
import { siteCapabilities, siteJobHandlers, tavilyError } from './site-jobs.js';

const RESEARCH_JOB = 'agent.research';
const STATUS_PATH = '/api/v1/agent/research/jobs';

function runResearchJob(services: AgentServices) {
  return (
    input: unknown,
    job: { signal: AbortSignal; progress(p: { progress: number; total?: number; message?: string }): void },
  ) =>
    agentResearch(services, input as AgentResearchInput, {
      signal: job.signal,
      progress: job.progress,
      logger: services.logger.child({ job: RESEARCH_JOB }),
      host: 'job',
    });
}

export default definePlugin({
  uses: AGENT_USES,
  jobHandlers(services) {
    return { [RESEARCH_JOB]: runResearchJob(services), ...siteJobHandlers(services) };
  },

  setup(services) {
    const linkPolicy = outboundLinkPolicy(services.config.outbound);
    const search = defineCapability({
      id: 'agent.search',
      title: 'Search and answer with citations',
      description:
        'Search the web (engines per topic), read the best pages and return for each result the passage that ' +
        'best answers the query with a calibrated 0–1 score; ' +
        'optionally a cited answer ([n] → results; extractive without an LLM), raw page content, and images. ' +
        'Tavily-compatible (POST /search).',
      input: agentSearchInputSchema,
      output: agentSearchOutputSchema,
      http: { method: 'POST', path: '/api/v1/agent/search' },
      mcpTool: 'agent_search',
      readOnly: true,
      errorBody: tavilyError,
      toMarkdown: (out) => renderSearch(out, linkPolicy),
      handler: (input, ctx) => agentSearch(services, input, ctx),
    });

    const extract = defineCapability({
      id: 'agent.extract',
      title: 'Extract page content',
      description:
        "Read up to 20 URLs and return each page's main content as markdown or text (advanced: rendered with " +
        'JavaScript). With a query, only the passages most relevant to it. ' +
        'A URL that fails is reported with its reason; the call still succeeds. Tavily-compatible (POST /extract).',
      input: agentExtractInputSchema,
      output: agentExtractOutputSchema,
      http: { method: 'POST', path: '/api/v1/agent/extract' },
      mcpTool: 'agent_extract',
      readOnly: true,
      errorBody: tavilyError,
      toMarkdown: (out) => renderExtract(out, linkPolicy),
      handler: (input, ctx) => agentExtract(services, input, ctx),
    });

    const researchJobs = jobSurface(services.jobs, {
      kind: RESEARCH_JOB,
      form: standardJobForm(agentResearchReportSchema),
      statusRoute: {
        id: 'agent.research_status',
        title: 'Research job status',
        description: 'Status, progress and, once finished, the report of a research started with async: true.',
        mcpTool: 'agent_research_status',
        path: `${STATUS_PATH}/:job_id`,
        idField: 'job_id',
        input: agentJobInputSchema,
        noun: 'research job',
        errorBody: tavilyError,
      },
    });

    const research = researchJobs.capability({
      id: 'agent.research',
      title: 'Multi-step research with a cited report',
      description:
        'Research a question in several steps: plan sub-questions, search and read pages, deduplicate, rank ' +
        'passages, search again for what is still unanswered (deep, comprehensive), ' +
        'then write an executive summary, a detailed analysis per sub-question and key findings, every claim ' +
        'cited [n] → sources. Sends progress per step; ' +
        'async: true answers at once with a job id and status URL.',
      input: agentResearchInputSchema,
      output: agentResearchReportSchema,
      http: { method: 'POST', path: '/api/v1/agent/research' },
      mcpTool: 'agent_research',
      readOnly: true,
      errorBody: tavilyError,
      toMarkdown: (out) => {
        const answer = out as AgentResearchReport | { job_id: string; status_url: string };
        return 'executive_summary' in answer
          ? renderResearch(answer, linkPolicy)
          : renderJobAccepted('Research', { job_id: answer.job_id, status_url: answer.status_url });
      },
      runsAsJob: (input) => input.async,
      run: (input, ctx) => agentResearch(services, input, ctx),
      submission: (input) => ({ input: { ...input, async: false } }),
    });

    const status = researchJobs.statusCapability({
      toMarkdown: (out) => (out.result ? renderResearch(out.result, linkPolicy) : renderJobState('Research', out)),
    });

    return [search, extract, ...siteCapabilities(services, linkPolicy), research, status];
  },
});
