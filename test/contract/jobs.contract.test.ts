/**
 * The job contract, over every capability declared on the job surface
 * (services/jobs/job-capability.ts), found in the registry rather than listed
 * by hand: submitting answers with the job and where to poll (202 with
 * status_url, or the area's own form: verify's 200 with poll_url); the status
 * route answers its documented schema while the job runs and once it is done;
 * the outcome is waited for through the job service's change notices; an
 * unknown id, and the id of another kind's job, are a 404. A job capability
 * without an example below fails the suite. Jobs that need a language model
 * (Firecrawl's extract) run on a second instance with a scripted local
 * OpenAI-compatible server, so the others keep their model-free behaviour.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnyCapability, CallContext } from '../../core/capability.js';
import { silentLogger } from '../../core/logger.js';
import { LOCAL_PRINCIPAL } from '../../core/principal.js';
import type { ConfigInput } from '../../app/config.js';
import {
  chatCompletionReply,
  startScriptedServer,
  type ScriptedServer,
} from '../../services/llm/fixtures/scripted-server.js';
import { startResearchWeb, type ResearchWeb } from '../e2e/research-web.js';
import type { RunningQuarry } from '../e2e/harness.js';
import { startContractHosts, type ContractHosts } from './contract-suite.js';

let site: ResearchWeb;
let hosts: ContractHosts;
let quarry: RunningQuarry;
let llm: ScriptedServer;
/** The instance with a language model, for MODEL_EXAMPLES. */
let withModel: RunningQuarry;
/** A second Quarry with a scripted model, for the capabilities that need one (MODEL_EXAMPLES). */
let modelHosts: ContractHosts;

/** A request that runs as a job, per submitting capability; a function when it needs an earlier job's outcome. */
const EXAMPLES: Record<string, Record<string, unknown> | (() => Record<string, unknown>)> = {
  'search.web': { query: 'heat pump', async_mode: true },
  'enhanced.search': { query: 'heat pump', async_mode: true },
  'agent.research': { query: 'heat pump', depth: 'quick', max_sources: 3, async: true },
  'agent.crawl': () => ({ url: site.url('/heat-pumps/what-is-a-heat-pump'), max_depth: 1, limit: 3, async: true }),
  'agent.map': () => ({ url: site.url('/heat-pumps/what-is-a-heat-pump'), max_depth: 1, limit: 3, async: true }),
  'rag.research': { topic: 'heat pump', depth: 'quick', async: true },
  // Resumes the corpus the rag.research job built (a complete corpus is answered as it is).
  'rag.corpus_resume': () => ({ corpus_id: completed.get('rag.research')!.corpus_id, async: true }),
  'verify.batch': { claims: ['A heat pump moves heat from outside to inside'], wait_seconds: 0 },
  'firecrawl.crawl_v2': () => ({ url: site.url('/heat-pumps/what-is-a-heat-pump'), limit: 2 }),
  'firecrawl.batch_scrape_v2': () => ({ urls: [site.url('/heat-pumps/what-is-a-heat-pump')] }),
  'firecrawl.extract_v2': () => ({
    urls: [site.url('/heat-pumps/what-is-a-heat-pump')],
    prompt: 'What a heat pump does',
    schema: { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'] },
  }),
};

/** Examples whose job asks a language model: run on the instance that has one. */
const MODEL_EXAMPLES = new Set(['firecrawl.extract_v2']);
/**
 * Accepting answers that name only the job's id, with the reason: their clients build the status path themselves.
 */
const ID_ONLY_ANSWERS: Record<string, string> = {
  'firecrawl.extract_v2': "Firecrawl's extract answers {success, id, urlTrace}",
};

const hostOf = (capabilityId: string): RunningQuarry => (MODEL_EXAMPLES.has(capabilityId) ? withModel : quarry);

/** What each submitting capability's job answered when polled to the end, by capability id. */
const completed = new Map<string, Record<string, any>>();
/** Job ids submitted, by status capability, and where: ids of other kinds must be 404 there. */
const submitted: Array<{ statusCapability: string; id: string; host: RunningQuarry }> = [];

/** The generic reading as a host acting for an admin (the stdio MCP host's principal) sees every job. */
const ctx: CallContext = {
  signal: new AbortController().signal,
  logger: silentLogger(),
  progress: () => undefined,
  host: 'job',
  caller: LOCAL_PRINCIPAL,
};

function jobCapabilities(on: RunningQuarry = quarry): {
  submitting: AnyCapability[];
  status: Map<string, AnyCapability>;
} {
  const all = on.app.registry.list().filter((c) => c.job);
  return {
    submitting: all.filter((c) => c.job!.statusCapability !== c.id),
    status: new Map(all.filter((c) => c.job!.statusCapability === c.id).map((c) => [c.id, c])),
  };
}

function statusPath(status: AnyCapability, jobId: string): string {
  return status.http.path.replace(`:${status.job!.idField}`, jobId);
}

beforeAll(async () => {
  site = await startResearchWeb();
  hosts = await startContractHosts(site.web, site.config());
  quarry = hosts.quarry;
  llm = await startScriptedServer();
  llm.script(chatCompletionReply({ answer: 'It moves heat from outside to inside.' }));
  modelHosts = await startContractHosts(site.web, {
    ...site.config(),
    llm: { fast: { provider: 'openai-compatible', baseUrl: `${llm.origin}/v1`, model: 'scripted-7b', maxRetries: 0 } },
  } as ConfigInput);
  withModel = modelHosts.quarry;
}, 60_000);

afterAll(async () => {
  await modelHosts?.close();
  await llm?.close();
  await hosts?.close();
  await site?.close();
});

describe('the job surface', () => {
  it('covers every job capability: each submitting one names a status capability that reads its kind', () => {
    const { submitting, status } = jobCapabilities();
    expect(submitting.map((c) => c.id).sort()).toEqual(Object.keys(EXAMPLES).sort());
    for (const capability of submitting) {
      const reader = status.get(capability.job!.statusCapability);
      expect(reader, capability.id).toBeDefined();
      expect(reader!.job!.kind).toBe(capability.job!.kind);
      expect(reader!.http.method).toBe('GET');
    }
  });

  // In order: rag.corpus_resume needs the corpus rag.research built.
  for (const id of Object.keys(EXAMPLES)) {
    it(`${id}: accepted with where to poll, a status of the documented schema while it runs and when done, the outcome heard without polling`, async () => {
      const host = hostOf(id);
      const capability = host.app.registry.get(id)!;
      const status = jobCapabilities(host).status.get(capability.job!.statusCapability)!;
      const example = EXAMPLES[id]!;
      const body = typeof example === 'function' ? example() : example;
      expect(capability.job!.runsAsJob(id, host.app.registry.validate(capability, body))).toBe(true);

      const accepted = await host.post(capability.http.path, body);
      expect(accepted.status, JSON.stringify(accepted.body)).toBe(capability.http.accepted ? 202 : 200);
      if (capability.http.accepted) expect(capability.http.accepted.output.safeParse(accepted.body).success).toBe(true);
      // Firecrawl's form names them id and url.
      const jobId: string = accepted.body.job_id ?? accepted.body.id;
      expect(jobId).toMatch(/^[a-z]+_[0-9a-f]{24}$/);
      const where: string | undefined = accepted.body.status_url ?? accepted.body.poll_url ?? accepted.body.url;
      const paths = [status.http.path, ...(status.http.aliases ?? [])].map((path) =>
        path.replace(`:${status.job!.idField}`, jobId),
      );
      if (ID_ONLY_ANSWERS[id]) expect(where, ID_ONLY_ANSWERS[id]).toBeUndefined();
      else
        expect(
          paths.some((path) => where!.endsWith(path)),
          where,
        ).toBe(true);
      submitted.push({ statusCapability: status.id, id: jobId, host });

      const first = await host.get(statusPath(status, jobId));
      expect(first.status).toBe(200);
      expect(status.output.safeParse(first.body).error).toBeUndefined();
      // A route speaking another service's wire format (Firecrawl's status does not repeat the id) is left its shape.
      if (!status.http.errorReply) expect(first.body.job_id).toBe(jobId);

      const done = await host.app.services.jobs.waitFor(jobId, { timeoutMs: 90_000 });
      expect(done, `job ${jobId}`).toMatchObject({ status: 'completed' });
      const last = await host.get(statusPath(status, jobId));
      expect(last.status).toBe(200);
      expect(status.output.safeParse(last.body).error).toBeUndefined();
      expect(last.body.status).toBe('completed');
      // The generic reading hosts use sees the same job and its result.
      const read = await status.job!.read(jobId, ctx);
      expect(read).toMatchObject({ id: jobId, kind: capability.job!.kind, status: 'completed' });
      expect(read.result).toBeDefined();
      completed.set(id, {
        ...(read.result as object),
        ...(accepted.body.corpus_id ? { corpus_id: accepted.body.corpus_id } : {}),
      });
    }, 120_000);
  }

  it('answers 404 for an unknown job id, and for the id of another kind’s job, on every status route', async () => {
    expect(submitted.length).toBe(Object.keys(EXAMPLES).length);
    for (const reader of jobCapabilities().status.values()) {
      const own = submitted.find((s) => s.statusCapability === reader.id)!;
      const unknown = await quarry.get(statusPath(reader, own.id.replace(/[0-9a-f]{24}$/, '0'.repeat(24))));
      expect(unknown.status, reader.id).toBe(404);
      expect(unknown.body.error?.code ?? unknown.body.detail?.error ?? unknown.body.code, reader.id).toBeTruthy();
      // Each foreign id is asked of the instance that holds it, so the 404 is about its kind, not its absence.
      for (const other of submitted.filter((s) => s.statusCapability !== reader.id)) {
        const input = { [reader.job!.idField]: other.id };
        if (!reader.input.safeParse(input).success) continue; // not even an id of this route's shape
        const foreign = await other.host.get(statusPath(reader, other.id));
        expect(foreign.status, `${reader.id} reading ${other.id}`).toBe(404);
      }
      await expect(reader.job!.read(own.id.replace(/[0-9a-f]{24}$/, '0'.repeat(24)), ctx)).rejects.toMatchObject({
        code: 'NOT_FOUND',
      });
    }
  });
});
