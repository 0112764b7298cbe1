/** The RAG area (/api/v1/rag): search with context, corpora (build, search, manage) and image search. */
import { RAG_USES, type RagServices } from './uses.js';
import { z } from 'zod';
import { defineCapability, type CallContext } from '../../core/capability.js';
import { AppError } from '../../core/errors.js';
import { definePlugin } from '../../app/plugin-services.js';
import { jobSurface } from '../../services/jobs/job-capability.js';
import { jobAccepted, standardJobForm } from '../../services/jobs/job-view.js';
import { Corpora } from './corpora/corpora.js';
import { newCorpusId } from './corpora/corpus-store.js';
import { assertImageEngines, defaultImageEngine, searchImages } from '../../services/sources/images.js';
import { addToCorpus, deleteCorpus, getCorpus, listCorpora, semanticSearch } from './corpora.js';
import { outboundLinkPolicy } from '../../services/markdown/link-policy.js';
import { renderJobState } from '../../services/markdown/job-state.js';
import type { LinkPolicy } from '../../services/markdown/escape.js';
import {
  renderCorpora,
  renderCorpus,
  renderImages,
  renderRagSearch,
  renderResearch,
  renderSemantic,
} from './render.js';
import { buildParameters, researchCorpus, resumeCorpus } from './research.js';
import {
  corporaListOutputSchema,
  corpusAddInputSchema,
  corpusAddOutputSchema,
  corpusDeleteOutputSchema,
  corpusGetOutputSchema,
  corpusIdInputSchema,
  corpusResumeInputSchema,
  ragImagesInputSchema,
  ragImagesOutputSchema,
  ragJobInputSchema,
  ragJobAcceptedSchema,
  ragResearchInputSchema,
  ragResearchResultSchema,
  ragSearchInputSchema,
  ragSearchOutputSchema,
  semanticSearchInputSchema,
  semanticSearchOutputSchema,
  type RagResearchInput,
  type RagResearchResult,
} from './schemas.js';
import { ragSearch } from './search.js';

type CorporaList = z.infer<typeof corporaListOutputSchema>;

const RESEARCH_JOB = 'rag.research';
const STATUS_PATH = '/api/v1/rag/research/jobs';
const SAFE_SEARCH = { off: 0, moderate: 1, strict: 2 } as const;

type JobInput = { kind: 'build'; input: RagResearchInput; corpus_id: string } | { kind: 'resume'; corpus_id: string };

/** A build job runs once per corpus id: run again (after a crash) it resumes what the record says is left. */
async function runJob(services: RagServices, job: JobInput, ctx: CallContext): Promise<RagResearchResult> {
  const existing = await (await services.corpora.store()).get(job.corpus_id);
  if (job.kind === 'resume' || existing) return resumeCorpus(services, job.corpus_id, ctx);
  return researchCorpus(services, job.input, ctx, job.corpus_id);
}

/** The standard job form; the accepting answer also names the corpus being built. */
function corpusJobs(services: RagServices) {
  const standard = standardJobForm(ragResearchResultSchema);
  return jobSurface(services.jobs, {
    kind: RESEARCH_JOB,
    form: {
      ...standard,
      accepted: ragJobAcceptedSchema,
      toAccepted: (job, url) => ({ ...jobAccepted(job, url), corpus_id: (job.input as JobInput).corpus_id }),
    },
    statusRoute: {
      id: 'rag.research_status',
      title: 'Corpus build job status',
      description: 'Status, progress and, once finished, the result of a corpus build started with async: true.',
      mcpTool: 'rag_research_status',
      path: `${STATUS_PATH}/:job_id`,
      idField: 'job_id',
      input: ragJobInputSchema,
      noun: 'corpus build job',
    },
  });
}

const renderAccepted = (verb: string, linkPolicy: LinkPolicy) => (out: unknown) => {
  const answer = out as RagResearchResult | { job_id: string; corpus_id: string; status_url: string };
  return 'topic' in answer
    ? renderResearch(answer, linkPolicy)
    : `Corpus ${answer.corpus_id} is being ${verb}: job ${answer.job_id} (poll ${answer.status_url})`;
};

export default definePlugin({
  uses: RAG_USES,
  open: (shared): RagServices => ({
    ...shared,
    corpora: new Corpora(shared.config.dataDir, shared.logger.child({ component: 'corpora' })),
  }),
  close: (services) => services.corpora.close(),

  jobHandlers(_shared, services) {
    return {
      [RESEARCH_JOB]: (input, job) =>
        runJob(services, input as JobInput, {
          signal: job.signal,
          progress: job.progress,
          logger: services.logger.child({ job: RESEARCH_JOB }),
          host: 'job',
          // The corpus it builds is the submitter's.
          ...(job.owner ? { caller: job.owner } : {}),
        }),
    };
  },

  setup(_shared, services) {
    const linkPolicy = outboundLinkPolicy(services.config.outbound);
    const search = defineCapability({
      id: 'rag.search',
      title: 'Search with context for a model',
      description:
        'Search, read the pages and return the sources (with a summary and a calibrated relevance each) and ' +
        'a context for an LLM: the most relevant chunks of those pages, ' +
        'in reading order, each tagged [n] with its source, within max_context_tokens (cl100k tokens).',
      input: ragSearchInputSchema,
      output: ragSearchOutputSchema,
      http: { method: 'POST', path: '/api/v1/rag/search' },
      mcpTool: 'rag_search',
      readOnly: true,
      toMarkdown: (out) => renderRagSearch(out, linkPolicy),
      handler: (input, ctx) => ragSearch(services, input, ctx),
    });

    const corpusBuilds = corpusJobs(services);

    const research = corpusBuilds.capability({
      id: 'rag.research',
      title: 'Build a research corpus',
      description:
        'Research a topic and store what is found as a durable corpus (LanceDB): queries per category, pages ' +
        'searched, read, deduplicated, chunked and embedded. ' +
        'Answers with the corpus_id for rag_semantic_search. Progress per step; async: true answers at once ' +
        'with a job id.',
      input: ragResearchInputSchema,
      output: ragResearchResultSchema,
      http: { method: 'POST', path: '/api/v1/rag/research' },
      mcpTool: 'rag_research',
      toMarkdown: renderAccepted('built', linkPolicy),
      // Validates the engines before anything starts.
      prepare: async (input) => void buildParameters(services, input),
      runsAsJob: (input) => input.async,
      run: (input, ctx) => researchCorpus(services, input, ctx),
      async submission(input, _prepared, ctx) {
        // Refused now rather than as a failed job; the build checks again as it creates the corpus.
        await (await services.corpora.store()).assertRoomFor(ctx.caller?.id, services.config.quotas.corpora);
        return {
          input: { kind: 'build', input: { ...input, async: false }, corpus_id: newCorpusId() } satisfies JobInput,
        };
      },
    });

    const status = corpusBuilds.statusCapability({
      toMarkdown: (out) => (out.result ? renderResearch(out.result, linkPolicy) : renderJobState('Research', out)),
    });

    const semantic = defineCapability({
      id: 'rag.semantic_search',
      title: 'Search a corpus by meaning',
      description:
        'Hybrid retrieval (vectors + full text, fused by rank) over one corpus, each chunk then scored with ' +
        'the calibrated relevance (0.5: as likely relevant as not). ' +
        'Hits name their source (src_…), the chunk text and its offsets in the source.',
      input: semanticSearchInputSchema,
      output: semanticSearchOutputSchema,
      http: { method: 'POST', path: '/api/v1/rag/semantic-search' },
      mcpTool: 'rag_semantic_search',
      readOnly: true,
      toMarkdown: (out) => renderSemantic(out, linkPolicy),
      handler: (input, ctx) => semanticSearch(services, input, ctx),
    });

    const images = defineCapability({
      id: 'rag.images',
      title: 'Image search',
      description:
        'Images from image engines, merged and deduplicated across engines by image URL; safe_search is ' +
        'passed to engines that support it.',
      input: ragImagesInputSchema,
      output: ragImagesOutputSchema,
      http: { method: 'POST', path: '/api/v1/rag/images' },
      mcpTool: 'rag_images',
      readOnly: true,
      toMarkdown: (out) => renderImages(out, linkPolicy),
      async handler(input, ctx) {
        const started = performance.now();
        let engines = input.engines ? [...new Set(input.engines)] : [];
        if (engines.length > 0) assertImageEngines(services.engines, engines);
        else {
          const fallback = defaultImageEngine(services.engines);
          if (!fallback)
            throw new AppError(
              'UNAVAILABLE',
              'no image engine is enabled; enable one in the config (engines.<id>.enabled)',
            );
          engines = [fallback];
        }
        const found = await searchImages(services.webSearch, {
          query: input.query,
          engines,
          maxResults: input.max_results,
          safeSearch: SAFE_SEARCH[input.safe_search],
          language: 'en',
          deadline: performance.now() + 20_000,
          signal: ctx.signal,
        });
        return {
          query: input.query,
          images: found.images,
          total_results: found.images.length,
          processing_time_ms: Math.round(performance.now() - started),
          engines_failed: found.engines.failed,
        };
      },
    });

    const list = defineCapability({
      id: 'rag.corpora_list',
      title: 'List corpora',
      description:
        'Your corpora (an admin: every corpus) with their topic, status (building, complete, incomplete), ' +
        'counts and parameters, newest first.',
      input: z.strictObject({}),
      output: corporaListOutputSchema,
      http: { method: 'GET', path: '/api/v1/rag/corpora' },
      mcpTool: 'rag_corpora_list',
      readOnly: true,
      toMarkdown: renderCorpora,
      handler: (_input, ctx) => listCorpora(services, ctx),
    });

    const get = defineCapability({
      id: 'rag.corpus_get',
      title: 'Get a corpus',
      description: 'A corpus record with its counts, queries and sources (without their text).',
      input: corpusIdInputSchema,
      output: corpusGetOutputSchema,
      http: { method: 'GET', path: '/api/v1/rag/corpora/:corpus_id' },
      mcpTool: 'rag_corpus_get',
      readOnly: true,
      mcpResource: {
        uriTemplate: 'quarry://corpora/{corpus_id}',
        name: 'corpus',
        title: 'A corpus and its documents',
        description:
          'A research corpus: its topic, status, queries and the documents (sources) it holds, each with its ' +
          'URL and summary. Search inside it with rag_semantic_search.',
        list: {
          capability: 'rag.corpora_list',
          items: (out) =>
            (out as CorporaList).corpora.map((c) => ({
              variables: { corpus_id: c.corpus_id },
              name: c.corpus_id,
              title: c.topic,
            })),
        },
      },
      toMarkdown: (out) => renderCorpus(out, linkPolicy),
      handler: (input, ctx) => getCorpus(services, input.corpus_id, ctx),
    });

    const remove = defineCapability({
      id: 'rag.corpus_delete',
      title: 'Delete a corpus',
      description: 'Deletes a corpus: its record, sources, chunks and embeddings.',
      input: corpusIdInputSchema,
      output: corpusDeleteOutputSchema,
      http: { method: 'DELETE', path: '/api/v1/rag/corpora/:corpus_id' },
      mcpTool: 'rag_corpus_delete',
      handler: (input, ctx) => deleteCorpus(services, input.corpus_id, ctx),
    });

    const add = defineCapability({
      id: 'rag.corpus_add',
      title: 'Add pages or texts to a corpus',
      description: 'Reads up to 20 URLs and/or takes up to 20 texts, chunks and embeds them into an existing corpus.',
      input: corpusAddInputSchema,
      output: corpusAddOutputSchema,
      http: { method: 'POST', path: '/api/v1/rag/corpora/add' },
      mcpTool: 'rag_corpus_add',
      handler: (input, ctx) => addToCorpus(services, input, ctx),
    });

    const resume = corpusBuilds.capability({
      id: 'rag.corpus_resume',
      title: 'Resume an incomplete corpus',
      description:
        'Continues the build of an incomplete corpus with the queries it had not run; a complete corpus is ' +
        'answered as it is.',
      input: corpusResumeInputSchema,
      output: ragResearchResultSchema,
      http: { method: 'POST', path: '/api/v1/rag/corpora/resume' },
      mcpTool: 'rag_corpus_resume',
      toMarkdown: renderAccepted('resumed', linkPolicy),
      runsAsJob: (input) => input.async,
      run: (input, ctx) => resumeCorpus(services, input.corpus_id, ctx),
      async submission(input, _prepared, ctx) {
        await (await services.corpora.store()).requireFor(input.corpus_id, ctx.caller);
        return { input: { kind: 'resume', corpus_id: input.corpus_id } satisfies JobInput };
      },
    });

    return [search, research, status, semantic, images, list, get, remove, add, resume];
  },
});
