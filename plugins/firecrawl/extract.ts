/**
 * POST /v2/extract and /v1/extract, GET …/extract/:id: Firecrawl's extract as
 * a durable job on the one job surface (services/jobs/job-capability.ts). The
 * job reads the URLs through read-pages.ts (the one reader, robots.txt first)
 * and asks the language model once over all of them (json-extraction.ts: the
 * caller's schema checked, one retry). Without a model it is refused before
 * any job exists, with the same 400 as the json format.
 *
 * v2's start and status capabilities carry the surface's job declaration (the
 * job contract suite runs it with a scripted model; hosts read it as a job);
 * v1's are served beside them without it (as v1's crawl is), on the same
 * surface and kind.
 */
import type { z } from 'zod';
import type { CallContext } from '../../core/capability.js';
import { defineCapability } from '../../core/capability.js';
import { AppError } from '../../core/errors.js';
import type { JobHandlerContext } from '../../core/plugin.js';
import { jobSurface } from '../../services/jobs/job-capability.js';
import type { JobRecord } from '../../services/jobs/types.js';
import { firecrawlErrorReply } from './envelope.js';
import {
  extractIdInputSchema,
  extractInputSchema,
  extractStartedSchema,
  extractStatusSchema,
  type ExtractInput,
  type ExtractResult,
} from './extract-schema.js';
import { compileSchema, extractJson } from './json-extraction.js';
import { readDocuments, requireModel } from './read-pages.js';
import { firecrawlRoute, FIRECRAWL_MOUNT, type FirecrawlVersion } from './routes.js';
import { scrapeOptionsSchema, V2_DEFAULT_MAX_AGE_MS } from './scrape-schema.js';
import type { FirecrawlServices } from './uses.js';

export const EXTRACT_JOB = 'firecrawl.extract';

/** What the job stores: the request as validated, and which wire form asked. */
interface ExtractJobInput {
  version: FirecrawlVersion;
  request: ExtractInput;
}

/** Fields accepted and ignored, named back so a caller does not think they took effect. */
const IGNORED = ['enableWebSearch', 'allowExternalLinks', 'includeSubdomains', 'ignoreSitemap'] as const;

export async function runExtract(
  services: FirecrawlServices,
  raw: unknown,
  job: JobHandlerContext,
): Promise<ExtractResult> {
  const { request } = raw as ExtractJobInput;
  const ctx: CallContext = {
    signal: job.signal,
    progress: job.progress,
    logger: services.logger.child({ job: EXTRACT_JOB }),
    host: 'job',
    ...(job.owner ? { caller: job.owner } : {}),
  };
  const model = requireModel(services, 'extract');
  // Markdown only: the model reads the pages' text, whatever formats scrapeOptions named.
  const options = scrapeOptionsSchema.parse({ ...request.scrapeOptions, formats: ['markdown'] });
  job.progress({ progress: 0, total: request.urls.length + 1, message: `reading ${request.urls.length} pages` });
  const outcomes = await readDocuments(services, request.urls, options, ctx);
  const read = outcomes.flatMap((o) => ('document' in o && o.document.markdown ? [o] : []));
  const failed = outcomes.filter((o) => !read.includes(o as (typeof read)[number]));
  if (read.length === 0)
    // The first page's own error (robots.txt, timeout, …) says most; a page read but empty has none.
    throw (
      (failed.find((o) => 'error' in o) as { error: AppError } | undefined)?.error ??
      new AppError('UPSTREAM_FAILED', `extract: none of the pages had readable content: ${request.urls.join(', ')}`)
    );
  job.progress({ progress: request.urls.length, total: request.urls.length + 1, message: 'asking the model' });
  const content = read
    .map((o, i) => `Page ${i + 1} (${o.document.metadata.url}):\n${o.document.markdown}`)
    .join('\n\n---\n\n');
  const data = await extractJson(model, services.parsing, {
    field: 'extract',
    ...(request.prompt ? { prompt: request.prompt } : {}),
    ...(request.systemPrompt ? { systemPrompt: request.systemPrompt } : {}),
    ...(request.schema ? { schema: request.schema } : {}),
    content,
    signal: job.signal,
  });
  const notes = [
    ...(failed.length > 0 ? [`not read: ${failed.map((o) => o.url).join(', ')}`] : []),
    ...IGNORED.filter((field) => request[field]).map((field) => `${field} is not supported here and was ignored`),
  ];
  return {
    data,
    sources: read.map((o) => o.document.metadata.url),
    ...(notes.length > 0 ? { warning: notes.join('; ') } : {}),
  };
}

function statusWordOf(job: JobRecord): z.infer<typeof extractStatusSchema>['status'] {
  if (job.status === 'completed') return 'completed';
  if (job.status === 'failed') return job.error?.code === 'CANCELLED' ? 'cancelled' : 'failed';
  return 'processing';
}

export function extractCapabilities(services: FirecrawlServices) {
  const keepFinishedMs = services.config.jobs.keepFinishedHours * 3600_000;
  const toStatus = (job: JobRecord, version: FirecrawlVersion): z.infer<typeof extractStatusSchema> => {
    const result = job.result as ExtractResult | undefined;
    const status = statusWordOf(job);
    const request = (job.input as ExtractJobInput).request;
    const from = job.finishedAt ? Date.parse(job.finishedAt) : Date.now();
    const sources = result && request.showSources ? result.sources : undefined;
    return {
      success: status !== 'failed',
      status,
      data: result?.data ?? null,
      expiresAt: new Date(from + keepFinishedMs).toISOString(),
      ...(job.error ? { error: job.error.message } : {}),
      ...(result?.warning ? { warning: result.warning } : {}),
      ...(sources ? { sources: version === 'v1' ? sources : { '*': sources } } : {}),
    };
  };
  const surface = jobSurface(services.jobs, {
    kind: EXTRACT_JOB,
    idPrefix: 'extract_',
    form: {
      accepted: extractStartedSchema,
      // Firecrawl answers a started extract with 200, which its clients require.
      acceptedHttpStatus: 200,
      statusUrlField: 'id',
      toAccepted: (job) => ({ success: true as const, id: job.id, urlTrace: [] }),
      status: extractStatusSchema,
      toStatus: (job) => toStatus(job, (job.input as ExtractJobInput).version),
    },
    statusRoute: {
      id: 'firecrawl.extract_status_v2',
      title: 'Extract status (Firecrawl v2)',
      description: "A Firecrawl extract's status and, once completed, its data",
      mcpTool: 'firecrawl_extract_status',
      path: `${FIRECRAWL_MOUNT}/v2/extract/:id`,
      idField: 'id',
      input: extractIdInputSchema,
      noun: 'extract job',
    },
  });

  return (['v2', 'v1'] as const).flatMap((version) => {
    const declared = surface.capability({
      id: `firecrawl.extract_${version}`,
      title: `Extract (Firecrawl ${version})`,
      description:
        "Firecrawl's extract: reads the URLs (robots.txt first) and asks the language model for the data the " +
        'prompt and JSON Schema describe, ' +
        'checked against the schema. A job: answers `{success, id}`; poll GET …/extract/:id. Needs a ' +
        'language model (400 without one).',
      input: extractInputSchema(version === 'v2' ? V2_DEFAULT_MAX_AGE_MS : 0),
      http: { method: 'POST', ...firecrawlRoute(version, '/extract'), errorReply: firecrawlErrorReply },
      readOnly: true,
      prepare: async (input, ctx) => {
        requireModel(services, 'extract');
        if (input.schema) await compileSchema(services.parsing, input.schema, 'schema', ctx.signal);
      },
      submission: (input) => ({ input: { version, request: input } satisfies ExtractJobInput }),
    });
    const { job: _declaration, ...undeclared } = declared;
    const start = version === 'v2' ? declared : undeclared;
    const status = defineCapability({
      ...(version === 'v2' ? { job: surface.job } : {}),
      id: `firecrawl.extract_status_${version}`,
      title: `Extract status (Firecrawl ${version})`,
      description:
        "A Firecrawl extract's status (`processing`, `completed`, `failed`, `cancelled`), its data once " +
        'completed, and when it expires.',
      input: extractIdInputSchema,
      output: extractStatusSchema,
      http: { method: 'GET', ...firecrawlRoute(version, '/extract/:id'), errorReply: firecrawlErrorReply },
      readOnly: true,
      handler: async (input, ctx) => toStatus(await surface.read(input.id, ctx), version),
    });
    return [start, status];
  });
}
