/**
 * Firecrawl's model formats and extract through @mendable/firecrawl-js 4.x (v2 and v1 form) against a local
 * site and a scripted local OpenAI-compatible model: `json` checked against the caller's schema (one retry,
 * then an error naming what is wrong), json and extract without a model a 400 naming the setting, `summary`
 * written by the model, `changeTracking` new → same → changed (with a git diff) as the page is edited, and
 * extract jobs polled to completion.
 */
import Firecrawl, { FirecrawlAppV1, SdkError } from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConfigInput } from '../../app/config.js';
import {
  chatCompletionReply,
  startScriptedServer,
  type ScriptedServer,
} from '../../services/llm/fixtures/scripted-server.js';
import { startSandboxWeb, type SandboxWeb } from '../sandbox/sandbox-web.js';
import { until } from '../sandbox/until.js';
import { startQuarry, TEST_KEY, type RunningQuarry } from './harness.js';

const OTHER_KEY = 'other-key-9876543210';

let web: SandboxWeb;
let llm: ScriptedServer;
let withModel: RunningQuarry;
let withoutModel: RunningQuarry;
let firecrawl: Firecrawl;
let v1: FirecrawlAppV1;

const page = (body: string) =>
  `<!doctype html><html lang="en"><head><title>Granite</title></head><body><main><article><h1>Granite</h1>${body}</article></main></body></html>`;
const GRANITE =
  '<p>Granite is an igneous rock cut from the quarry face in benches of three metres with wire saws.</p>' +
  '<p>Its hardness on the Mohs scale is about six to seven, which makes it a lasting stone for steps.</p>';

const STONE_SCHEMA = {
  type: 'object',
  properties: { name: { type: 'string' }, hardness: { type: 'number' } },
  required: ['name', 'hardness'],
};

const promptOf = (n: number) => JSON.stringify(llm.received[n]?.body);

beforeAll(async () => {
  web = await startSandboxWeb();
  web.addPage('/granite', page(GRANITE));
  llm = await startScriptedServer();
  withModel = await startQuarry(
    web,
    {
      llm: {
        fast: { provider: 'openai-compatible', baseUrl: `${llm.origin}/v1`, model: 'scripted-7b', maxRetries: 0 },
      },
    } as ConfigInput,
    { apiKeys: [TEST_KEY, OTHER_KEY] },
  );
  withoutModel = await startQuarry(web);
  firecrawl = new Firecrawl({ apiKey: TEST_KEY, apiUrl: `${withModel.url}/firecrawl` });
  v1 = new FirecrawlAppV1({ apiKey: TEST_KEY, apiUrl: `${withModel.url}/firecrawl` });
}, 60_000);

afterAll(async () => {
  await withModel?.close();
  await withoutModel?.close();
  await llm?.close();
  await web?.close();
});

const url = (path = '/granite') => `${web.url}${path}`;

describe('json format', () => {
  it('v2: the page goes to the model with the schema, and the answer comes back as json', async () => {
    llm.script(chatCompletionReply({ name: 'granite', hardness: 6.5 }));
    const doc = await firecrawl.scrape(url(), {
      formats: [{ type: 'json', schema: STONE_SCHEMA, prompt: 'The stone and its hardness' }],
      maxAge: 0,
    });
    expect(doc.json).toEqual({ name: 'granite', hardness: 6.5 });
    expect(llm.received).toHaveLength(1);
    expect(promptOf(0)).toContain('wire saws');
    expect(promptOf(0)).toContain('The stone and its hardness');
    expect(promptOf(0)).toContain('hardness');
  });

  it('an answer that breaks the schema is sent back once with what is wrong, and the second answer is kept', async () => {
    llm.script(
      chatCompletionReply({ name: 'granite', hardness: 'hard' }),
      chatCompletionReply({ name: 'granite', hardness: 7 }),
    );
    const doc = await firecrawl.scrape(url(), { formats: [{ type: 'json', schema: STONE_SCHEMA }], maxAge: 0 });
    expect(doc.json).toEqual({ name: 'granite', hardness: 7 });
    expect(llm.received).toHaveLength(2);
    expect(promptOf(1)).toContain('/hardness must be number');
  });

  it('two answers that break the schema are an error naming the problem', async () => {
    llm.script(chatCompletionReply({ name: 'granite' }));
    const failure = await firecrawl
      .scrape(url(), { formats: [{ type: 'json', schema: STONE_SCHEMA }], maxAge: 0 })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SdkError);
    expect((failure as SdkError).message).toMatch(/did not match the schema.*hardness/);
    expect(llm.received).toHaveLength(2);
  });

  it('a schema that is not one is a 400 naming it, before the model is asked', async () => {
    llm.script(chatCompletionReply({}));
    const response = await withModel.post('/firecrawl/v2/scrape', {
      url: url(),
      formats: [{ type: 'json', schema: { type: 'no-such-type' } }],
    });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ success: false, code: 'BAD_REQUEST' });
    expect(response.body.error).toContain('formats: json schema');
    expect(llm.received).toHaveLength(0);
  });

  it('v1: formats json with jsonOptions', async () => {
    llm.script(chatCompletionReply({ name: 'granite', hardness: 6 }));
    // v1's types ask for a zod schema; a JSON Schema is sent as it is (the client converts only zod schemas).
    const result = await v1.scrapeUrl(url(), { formats: ['json'], jsonOptions: { schema: STONE_SCHEMA as never } });
    if (!result.success) throw new Error(result.error);
    expect(result.json).toEqual({ name: 'granite', hardness: 6 });
  });

  it('without a model: a 400 naming the setting to configure (v2 and v1)', async () => {
    const client = new Firecrawl({ apiKey: TEST_KEY, apiUrl: `${withoutModel.url}/firecrawl` });
    const failure = await client
      .scrape(url(), { formats: [{ type: 'json', schema: STONE_SCHEMA }] })
      .catch((error: unknown) => error);
    expect((failure as SdkError).status).toBe(400);
    expect((failure as SdkError).message).toMatch(/llm\.quality or llm\.fast/);
    const raw = await withoutModel.post('/firecrawl/v1/scrape', { url: url(), formats: ['json'], jsonOptions: {} });
    expect(raw.status).toBe(400);
    expect(raw.body).toMatchObject({ success: false, code: 'BAD_REQUEST', details: { quarryCode: 'UNAVAILABLE' } });
  });
});

describe('summary format', () => {
  it("with a model, the model's summary", async () => {
    llm.script(chatCompletionReply({ summaries: ['Granite is cut in benches and is hard enough for steps.'] }));
    const doc = await firecrawl.scrape(url(), { formats: ['summary'], maxAge: 0 });
    expect(doc.summary).toBe('Granite is cut in benches and is hard enough for steps.');
  });
});

describe('changeTracking format', () => {
  it('new, then same, then changed with a git diff once the page is edited', async () => {
    web.addPage('/tracked', page(GRANITE));
    const track = () =>
      firecrawl.scrape(url('/tracked'), {
        formats: ['markdown', { type: 'changeTracking', modes: ['git-diff'] }],
      });
    const first = await track();
    expect(first.changeTracking).toMatchObject({ changeStatus: 'new', previousScrapeAt: null, visibility: 'visible' });
    expect(first.warning ?? '').not.toContain('changeTracking');

    const second = await track();
    expect(second.changeTracking).toMatchObject({ changeStatus: 'same', visibility: 'visible' });
    expect(Date.parse(String(second.changeTracking!.previousScrapeAt))).not.toBeNaN();

    web.addPage('/tracked', page(GRANITE.replace('three metres', 'four metres')));
    const third = await track();
    const tracking = third.changeTracking as Record<string, any>;
    expect(tracking.changeStatus).toBe('changed');
    expect(tracking.diff.text).toContain(
      '-Granite is an igneous rock cut from the quarry face in benches of three metres',
    );
    expect(tracking.diff.text).toContain(
      '+Granite is an igneous rock cut from the quarry face in benches of four metres',
    );
    const changes = tracking.diff.json.files[0].chunks.flatMap((chunk: { changes: unknown[] }) => chunk.changes);
    expect(changes).toContainEqual(expect.objectContaining({ type: 'add' }));
    expect(changes).toContainEqual(expect.objectContaining({ type: 'del' }));
  });

  it("is kept per key: another key's first read of the same URL is new; a gone page is removed", async () => {
    web.addPage('/tracked-v1', page(GRANITE));
    const first = await v1.scrapeUrl(url('/tracked-v1'), { formats: ['markdown', 'changeTracking'] });
    if (!first.success) throw new Error(first.error);
    expect(first.changeTracking).toMatchObject({ changeStatus: 'new' });
    const other = new FirecrawlAppV1({ apiKey: OTHER_KEY, apiUrl: `${withModel.url}/firecrawl` });
    const theirs = await other.scrapeUrl(url('/tracked-v1'), { formats: ['markdown', 'changeTracking'] });
    if (!theirs.success) throw new Error(theirs.error);
    expect(theirs.changeTracking).toMatchObject({ changeStatus: 'new' });
    web.addPage('/tracked-v1', page('<p>Gone.</p>'), { status: 404 });
    const gone = await v1.scrapeUrl(url('/tracked-v1'), { formats: ['markdown', 'changeTracking'] });
    if (!gone.success) throw new Error(gone.error);
    expect(gone.changeTracking).toMatchObject({ changeStatus: 'removed' });
  });
});

describe("changeTracking's json mode", () => {
  const tracked = (path: string) =>
    firecrawl.scrape(url(path), {
      formats: ['markdown', { type: 'changeTracking', modes: ['json'], schema: STONE_SCHEMA, prompt: 'The stone' }],
    });

  it('the data kept with the first read, unchanged markdown compared without the model, a change per field', async () => {
    web.addPage('/tracked-json', page(GRANITE));
    llm.script(chatCompletionReply({ name: 'granite', hardness: 6 }));
    const first = await tracked('/tracked-json');
    expect(first.changeTracking).toMatchObject({ changeStatus: 'new', previousScrapeAt: null });
    expect(first.changeTracking!.json).toBeUndefined();
    expect(llm.received).toHaveLength(1);
    expect(promptOf(0)).toContain('The stone');
    expect(promptOf(0)).toContain('wire saws');

    llm.script(chatCompletionReply({ name: 'granite', hardness: 99 }));
    const second = await tracked('/tracked-json');
    expect(second.changeTracking).toMatchObject({ changeStatus: 'same', json: {} });
    expect(llm.received).toHaveLength(0);

    web.addPage('/tracked-json', page(GRANITE.replace('about six to seven', 'about seven')));
    llm.script(chatCompletionReply({ name: 'granite', hardness: 7 }));
    const third = await tracked('/tracked-json');
    expect(third.changeTracking).toMatchObject({
      changeStatus: 'changed',
      json: { hardness: { previous: 6, current: 7 } },
    });
    // The previous data was kept: one question, about the new markdown.
    expect(llm.received).toHaveLength(1);
    expect(promptOf(0)).toContain('about seven');
  });

  it("v1: a previous read that kept no data for this schema has its markdown asked about too (Firecrawl's way)", async () => {
    web.addPage('/tracked-json-v1', page(GRANITE));
    const options = (modes: Array<'json' | 'git-diff'>) => ({
      formats: ['markdown' as const, 'changeTracking' as const],
      changeTrackingOptions: { modes, schema: STONE_SCHEMA },
    });
    const first = await v1.scrapeUrl(url('/tracked-json-v1'), options(['git-diff']));
    if (!first.success) throw new Error(first.error);
    web.addPage('/tracked-json-v1', page(GRANITE.replace('Granite is', 'Red granite is')));
    llm.script(
      chatCompletionReply({ name: 'red granite', hardness: 6 }),
      chatCompletionReply({ name: 'granite', hardness: 6 }),
    );
    const second = await v1.scrapeUrl(url('/tracked-json-v1'), options(['json']));
    if (!second.success) throw new Error(second.error);
    expect(second.changeTracking).toMatchObject({
      changeStatus: 'changed',
      json: { name: { previous: 'granite', current: 'red granite' } },
    });
    expect(second.changeTracking!.json).not.toHaveProperty('hardness');
    expect(llm.received).toHaveLength(2);
    expect(promptOf(1)).not.toContain('Red granite');
  });

  it('a model answer that breaks the schema is refused as for the json format', async () => {
    web.addPage('/tracked-json-bad', page(GRANITE));
    llm.script(chatCompletionReply({ name: 'granite' }));
    const failure = await tracked('/tracked-json-bad').catch((error: unknown) => error);
    expect((failure as SdkError).message).toMatch(/formats: changeTracking.*did not match the schema.*hardness/);
  });

  it('without a model: a 400 naming the setting, before the page is read', async () => {
    const response = await withoutModel.post('/firecrawl/v2/scrape', {
      url: url(),
      formats: ['markdown', { type: 'changeTracking', modes: ['json'], schema: STONE_SCHEMA }],
    });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({
      success: false,
      code: 'BAD_REQUEST',
      details: { quarryCode: 'UNAVAILABLE' },
    });
    expect(response.body.error).toMatch(/changeTracking's json mode needs a language model.*llm\.quality or llm\.fast/);
  });

  it('a changeTracking schema that is not one is a 400 naming it', async () => {
    const response = await withModel.post('/firecrawl/v2/scrape', {
      url: url(),
      formats: ['markdown', { type: 'changeTracking', modes: ['json'], schema: { type: 'no-such-type' } }],
    });
    expect(response.status).toBe(400);
    expect(response.body.error).toContain('formats: changeTracking schema: not a usable JSON Schema');
  });
});

describe('extract', () => {
  it('v2: a job that reads the URLs, asks the model and completes with data checked against the schema', async () => {
    web.addPage(
      '/basalt',
      page('<p>Basalt is a dark volcanic rock with a hardness of about six on the Mohs scale.</p>'),
    );
    llm.script(chatCompletionReply({ name: 'granite and basalt', hardness: 6 }));
    const result = await firecrawl.extract({
      urls: [url(), url('/basalt')],
      prompt: 'The stones and their hardness',
      schema: STONE_SCHEMA,
      showSources: true,
      enableWebSearch: true,
      pollInterval: 1,
    });
    expect(result).toMatchObject({
      success: true,
      status: 'completed',
      data: { name: 'granite and basalt', hardness: 6 },
    });
    expect(Date.parse(result.expiresAt!)).toBeGreaterThan(Date.now());
    expect(result.sources).toEqual({ '*': [url(), url('/basalt')] });
    expect(result.warning).toContain('enableWebSearch');
    expect(promptOf(0)).toContain('wire saws');
    expect(promptOf(0)).toContain('dark volcanic rock');
  });

  it('v1: extract polled to completion; an unknown id is a 404', async () => {
    llm.script(chatCompletionReply({ name: 'granite', hardness: 6 }));
    const result = await v1.extract([url()], { prompt: 'The stone', schema: STONE_SCHEMA });
    expect(result).toMatchObject({ success: true, data: { name: 'granite', hardness: 6 } });
    const unknown = await withModel.get('/firecrawl/v1/extract/extract_000000000000000000000000');
    expect(unknown.status).toBe(404);
    expect(unknown.body.success).toBe(false);
  });

  it('a job whose answer breaks the schema twice: failed, success false, the problem named, expiresAt ISO', async () => {
    llm.script(chatCompletionReply({ name: 'granite' }));
    const result = await firecrawl.extract({ urls: [url()], schema: STONE_SCHEMA, pollInterval: 1 });
    expect(result).toMatchObject({ success: false, status: 'failed', data: null });
    expect(result.error).toMatch(/extract: the language model's answer did not match the schema twice.*hardness/);
    expect(new Date(result.expiresAt!).toISOString()).toBe(result.expiresAt);
    expect(llm.received).toHaveLength(2);
  });

  it('a job none of whose pages has readable content fails naming them, before the model is asked', async () => {
    web.addPage('/missing-stone', page('<p>Gone.</p>'), { status: 404 });
    llm.script(chatCompletionReply({ name: 'granite', hardness: 6 }));
    const result = await firecrawl.extract({ urls: [url('/missing-stone')], prompt: 'The stone', pollInterval: 1 });
    expect(result).toMatchObject({ success: false, status: 'failed' });
    expect(result.error).toContain(`none of the pages had readable content: ${url('/missing-stone')}`);
    // v1's client turns the failed status into an error with the same text.
    await expect(v1.extract([url('/missing-stone')], { prompt: 'The stone' })).rejects.toThrow(
      /Extract job failed.*none of the pages had readable content/,
    );
    expect(llm.received).toHaveLength(0);
  });

  it('processing while the model is asked; cancelled when the installation cancels it (Firecrawl has no cancel route)', async () => {
    llm.script({ hang: true });
    const started = await firecrawl.startExtract({ urls: [url()], prompt: 'The stone' });
    const id = started.id!;
    await until('the model to be asked', async () => llm.received.length > 0, 30_000);
    const running = await firecrawl.getExtractStatus(id);
    expect(running).toMatchObject({ success: true, status: 'processing', data: null });
    expect(Date.parse(running.expiresAt!)).toBeGreaterThan(Date.now());
    const noRoute = await fetch(`${withModel.url}/firecrawl/v2/extract/${id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${TEST_KEY}` },
    });
    expect(noRoute.status).toBe(405);
    await withModel.app.services.jobs.cancel(id);
    await withModel.app.services.jobs.waitFor(id, { timeoutMs: 30_000 });
    expect(await firecrawl.getExtractStatus(id)).toMatchObject({ status: 'cancelled' });
  });

  it('without a model, or without a prompt or schema: a 400 before any job exists', async () => {
    const noModel = await withoutModel.post('/firecrawl/v2/extract', { urls: [url()], prompt: 'The stone' });
    expect(noModel.status).toBe(400);
    expect(noModel.body.error).toMatch(/extract needs a language model.*llm\.quality or llm\.fast/);
    const nothingAsked = await withModel.post('/firecrawl/v2/extract', { urls: [url()] });
    expect(nothingAsked.status).toBe(400);
    expect(nothingAsked.body.error).toContain('prompt or schema');
  });
});
