/**
 * The research loop through its public interface (runResearch), on Quarry's real search service
 * and page reader: a sandbox web serves the heat-pump pages (test/sandbox/research-pages.ts) and
 * plays SearXNG with an engine that knows, for each exact query, which of those pages it lists,
 * so each test decides what every round finds. Follow-up queries come from the missing terms or
 * from a scripted model endpoint (a real OpenAI-compatible client).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../core/logger.js';
import { startQuarry, type RunningQuarry } from '../../test/e2e/harness.js';
import { HEAT_PUMP_PAGES, renderResearchPage, type ResearchPage } from '../../test/sandbox/research-pages.js';
import { startSandboxWeb, type SandboxWeb } from '../../test/sandbox/sandbox-web.js';
import { chatCompletionReply, startScriptedServer, type ScriptedServer } from '../llm/fixtures/scripted-server.js';
import { OpenAiCompatibleClient } from '../llm/openai-compatible.js';
import { newSeenSources } from '../web-search/gather.js';
import { runResearch, type ResearchLoopOptions } from './loop.js';

/** A chat completion from the model "planner-7b" whose message is `content`. */
const planner = (content: unknown) => chatCompletionReply(content, { model: 'planner-7b', usage: false });

const SUBJECT = 'heat pump';
const page = (slug: string): ResearchPage => HEAT_PUMP_PAGES.find((p) => p.path.endsWith(slug))!;
const WHAT_IS = page('/what-is-a-heat-pump');
const HOW = page('/how-heat-pumps-work');
const BENEFITS = page('/benefits-of-heat-pumps');
const HISTORY = page('/history-of-the-heat-pump');
const REPRINT = page('/heat-pumps-benefits-reprint');

let web: SandboxWeb;
let quarry: RunningQuarry;
let model: ScriptedServer;
/** What the engine lists for each exact query (lower case); any other query finds nothing. */
const listings = new Map<string, ResearchPage[]>();
const searched: string[] = [];

function list(query: string, pages: ResearchPage[]): void {
  listings.set(query.toLowerCase(), pages);
}

beforeAll(async () => {
  web = await startSandboxWeb();
  for (const p of HEAT_PUMP_PAGES) web.addPage(p.path, renderResearchPage(p));
  web.answerEngine('searxng', (request) => {
    const query = request.searchParams.get('q') ?? '';
    if ((request.searchParams.get('pageno') ?? '1') === '1') searched.push(query);
    const results = (listings.get(query.toLowerCase()) ?? []).map((p, i) => ({
      url: web.url + p.path,
      title: p.title,
      content: p.paragraphs[0]!,
      engine: 'sandbox',
      engines: ['sandbox'],
      score: 1 / (i + 1),
      category: 'general',
    }));
    const body = { query, number_of_results: results.length, results, answers: [], suggestions: [] };
    return { body: Buffer.from(JSON.stringify(body)), contentType: 'application/json', status: 200 };
  });
  quarry = await startQuarry(web, { search: { defaultEngines: ['searxng'] } });
  model = await startScriptedServer();
}, 60_000);

afterAll(async () => {
  await quarry?.close();
  await web?.close();
  await model?.close();
});

beforeEach(() => {
  listings.clear();
  searched.length = 0;
});

const pageReads = (p: ResearchPage) => web.requestLog().filter((r) => r.path === p.path).length;

function research(questions: string[], options: Partial<ResearchLoopOptions> = {}) {
  const webSearch = quarry.app.services.webSearch;
  return runResearch(webSearch, {
    subject: SUBJECT,
    questions,
    plans: webSearch.plan('default', SUBJECT),
    rounds: 2,
    pagesPerRound: 4,
    resultsPerEngine: 10,
    language: 'en',
    deadline: performance.now() + 60_000,
    signal: new AbortController().signal,
    embedder: null,
    llm: null,
    ...options,
  });
}

const urlOf = (p: ResearchPage) => web.url + p.path;
const FIRST_BUILT = 'who developed the first heat pump system in austria';
const FOUR_PARTS = 'what are the four main parts of a heat pump cycle';
const WHO_BUILT = 'who built the first heat pump';
/** The follow-up the loop writes without a model: the subject and the question's words the best passage lacks. */
const FIRST_BUILT_FOLLOW_UP = 'heat pump developed first system austria';

describe('runResearch', () => {
  it("reads the round's pages, ranks their passages for every question, and stops once every question is answered", async () => {
    list(FOUR_PARTS, [HOW, WHAT_IS]);
    list(WHO_BUILT, [HISTORY]);
    const steps: string[] = [];
    const outcome = await research([FOUR_PARTS, WHO_BUILT], {
      rounds: 3,
      progress: ({ message }) => steps.push(message),
    });
    expect(outcome.rounds).toBe(1);
    expect(searched).toEqual([FOUR_PARTS, WHO_BUILT]);
    expect(outcome.queriesExecuted).toEqual([FOUR_PARTS, WHO_BUILT]);
    expect(outcome.sources.map((s) => s.url).sort()).toEqual([urlOf(HOW), urlOf(WHAT_IS), urlOf(HISTORY)].sort());
    expect(outcome.sources.every((s) => s.read && s.text.length > 0)).toBe(true);
    expect(outcome.found).toBe(3);
    expect(outcome.coverage.map((c) => [c.question, c.answered])).toEqual([
      [FOUR_PARTS, true],
      [WHO_BUILT, true],
    ]);
    // ranked[q][s]: every source ranked for every question; each question's best page is the page that answers it.
    expect(outcome.ranked).toHaveLength(2);
    for (const perQuestion of outcome.ranked) expect(perQuestion).toHaveLength(outcome.sources.length);
    const bestPage = (q: number) => {
      const scores = outcome.ranked[q]!.map((p) => p.score);
      return outcome.sources[scores.indexOf(Math.max(...scores))]!.url;
    };
    expect(bestPage(0)).toBe(urlOf(HOW));
    expect(bestPage(1)).toBe(urlOf(HISTORY));
    expect(outcome.coverage[1]!.best).toBe(Math.max(...outcome.ranked[1]!.map((p) => p.score)));
    expect(outcome.ranked[1]![outcome.sources.findIndex((s) => s.url === urlOf(HISTORY))]!.passages[0]!.text).toContain(
      'Peter von Rittinger',
    );
    expect(steps[0]).toBe('round 1: searching 2 queries');
    expect(steps).toContain('round 1: ranking 3 pages for 2 questions');
    expect(steps.at(-1)).toBe('round 1 done: 2 of 2 questions answered, 3 pages');
    expect(outcome).toMatchObject({ failures: [], enginesFailed: [], pagesFailed: 0, duplicates: 0 });
  });

  it('searches, in a second round, the subject with the words the best passage lacks, and answers from what that finds', async () => {
    list(FIRST_BUILT, [WHAT_IS]);
    // The follow-up finds the page read before again, and the history page.
    list(FIRST_BUILT_FOLLOW_UP, [WHAT_IS, HISTORY]);
    const stored: Array<[string[], number, string[]]> = [];
    const outcome = await research([FIRST_BUILT], {
      rounds: 3,
      onSources: async (sources, round, queries) => void stored.push([sources.map((s) => s.url), round, queries]),
    });
    expect(searched).toEqual([FIRST_BUILT, FIRST_BUILT_FOLLOW_UP]);
    expect(outcome.rounds).toBe(2);
    expect(outcome.queriesExecuted).toEqual([FIRST_BUILT, FIRST_BUILT_FOLLOW_UP]);
    // Each round hands on only what it newly read: the first page is not read again.
    expect(stored).toEqual([
      [[urlOf(WHAT_IS)], 1, [FIRST_BUILT]],
      [[urlOf(HISTORY)], 2, [FIRST_BUILT_FOLLOW_UP]],
    ]);
    expect(outcome.sources.map((s) => s.url)).toEqual([urlOf(WHAT_IS), urlOf(HISTORY)]);
    expect(outcome.coverage).toEqual([{ question: FIRST_BUILT, best: expect.any(Number), answered: true }]);
    const best = outcome.ranked[0]![1]!.passages[0]!.text;
    expect(best).toContain('Peter von Rittinger');
  });

  it('stops after the rounds allowed, the question still open', async () => {
    list(FIRST_BUILT, [WHAT_IS]);
    list(FIRST_BUILT_FOLLOW_UP, [HISTORY]);
    const outcome = await research([FIRST_BUILT], { rounds: 1 });
    expect(searched).toEqual([FIRST_BUILT]);
    expect(outcome.rounds).toBe(1);
    expect(outcome.coverage[0]!.answered).toBe(false);
    expect(outcome.coverage[0]!.best).toBeGreaterThan(0);
  });

  it('starts no later round once less than a second of the deadline is left', async () => {
    list(FIRST_BUILT, [WHAT_IS]);
    list(FIRST_BUILT_FOLLOW_UP, [HISTORY]);
    const outcome = await research([FIRST_BUILT], { rounds: 3, deadline: performance.now() + 900 });
    expect(outcome.rounds).toBe(1);
    expect(searched).toEqual([FIRST_BUILT]);
  });

  describe('with a model', () => {
    const llm = () =>
      new OpenAiCompatibleClient({
        model: 'planner-7b',
        baseUrl: `${model.origin}/v1`,
        timeoutMs: 5000,
        maxRetries: 0,
        logger: silentLogger(),
      });

    it("searches the model's follow-up queries for the unanswered questions", async () => {
      model.script(planner({ queries: ['  Peter von Rittinger   heat pump '] }));
      list(FIRST_BUILT, [WHAT_IS]);
      list('Peter von Rittinger heat pump', [HISTORY]);
      const outcome = await research([FIRST_BUILT], { llm: llm() });
      expect(searched).toEqual([FIRST_BUILT, 'Peter von Rittinger heat pump']);
      expect(outcome.coverage[0]!.answered).toBe(true);
      const prompt = JSON.stringify(model.received.at(-1)!.body);
      expect(prompt).toContain(`Subject: ${SUBJECT}`);
      expect(prompt).toContain(`1. ${FIRST_BUILT}`);
    });

    it('falls back to the missing words, with a warning, when the model fails', async () => {
      model.script({ status: 500, json: { error: { message: 'down' } } });
      list(FIRST_BUILT, [WHAT_IS]);
      list(FIRST_BUILT_FOLLOW_UP, [HISTORY]);
      const warnings: unknown[] = [];
      const outcome = await research([FIRST_BUILT], {
        llm: llm(),
        logger: { info: () => undefined, warn: (...args: unknown[]) => void warnings.push(args) },
      });
      expect(searched).toEqual([FIRST_BUILT, FIRST_BUILT_FOLLOW_UP]);
      expect(outcome.coverage[0]!.answered).toBe(true);
      expect(warnings).toHaveLength(1);
    });
  });

  it("without reading pages, ranks the engines' snippets and fetches nothing", async () => {
    list('heat pump history', [HISTORY, WHAT_IS]);
    const before = [pageReads(HISTORY), pageReads(WHAT_IS)];
    const outcome = await research(['heat pump history'], { readPages: false, rounds: 1 });
    expect([pageReads(HISTORY), pageReads(WHAT_IS)]).toEqual(before);
    expect(outcome.sources.map((s) => [s.url, s.text])).toEqual([
      [urlOf(HISTORY), HISTORY.paragraphs[0]],
      [urlOf(WHAT_IS), WHAT_IS.paragraphs[0]],
    ]);
    expect(outcome.ranked[0]![0]!.passages[0]!.text).toContain('Lord Kelvin');
  });

  it('keeps one of a page and its syndicated copy, counting the copy as a duplicate', async () => {
    list('heat pump benefits', [BENEFITS, REPRINT]);
    const outcome = await research(['heat pump benefits'], { rounds: 1 });
    expect(outcome.sources.map((s) => s.url)).toEqual([urlOf(BENEFITS)]);
    expect(outcome.duplicates).toBe(1);
    expect(outcome.failures).toMatchObject([{ url: urlOf(REPRINT), stage: 'duplicate' }]);
  });

  it('reads on past a page that fails and an engine that fails, and reports both', async () => {
    const gone: ResearchPage = { path: '/heat-pumps/removed-article', title: 'Removed article', paragraphs: ['Gone.'] };
    list(WHO_BUILT, [gone, HISTORY]);
    const webSearch = quarry.app.services.webSearch;
    // mojeek points at the sandbox too, which has no recording for it: it fails.
    const outcome = await research([WHO_BUILT], {
      rounds: 1,
      plans: [...webSearch.plan('default', SUBJECT), { engine: 'mojeek', query: SUBJECT }],
    });
    expect(outcome.sources.map((s) => s.url)).toEqual([urlOf(HISTORY)]);
    expect(outcome.coverage[0]!.answered).toBe(true);
    expect(outcome.pagesFailed).toBe(1);
    expect(outcome.failures).toEqual([{ url: urlOf(gone), stage: 'page', code: 'HTTP_ERROR', reason: 'HTTP 404' }]);
    expect(outcome.enginesFailed).toEqual(['mojeek']);
  });

  it('skips what earlier work gathered (a resumed build): its pages and near copies of them', async () => {
    const seen = newSeenSources();
    list('heat pump benefits', [BENEFITS]);
    const first = await research(['heat pump benefits'], { rounds: 1, seen });
    expect(first.sources.map((s) => s.url)).toEqual([urlOf(BENEFITS)]);
    list('heat pump benefits', [BENEFITS, REPRINT, HOW]);
    const resumed = await research(['heat pump benefits'], { rounds: 1, seen });
    expect(resumed.sources.map((s) => s.url)).toEqual([urlOf(HOW)]);
  });

  it('stops with CANCELLED when the caller cancels between steps', async () => {
    list(FIRST_BUILT, [WHAT_IS]);
    list(FIRST_BUILT_FOLLOW_UP, [HISTORY]);
    const controller = new AbortController();
    const running = research([FIRST_BUILT], {
      rounds: 3,
      signal: controller.signal,
      onSources: async () => controller.abort(),
    });
    await expect(running).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(searched).toEqual([FIRST_BUILT]);
  });
});
