/**
 * The Verify API end to end over HTTP, offline (rules and the embedded
 * model), against hand-made pages on the sandbox web: verdicts with their
 * evidence, figures, qualifiers, an unmentioned claim, source credibility,
 * batches polled to completion and resumed across a restart, and bad input.
 * Every evidence snippet of every answer is checked against the page at its url.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseHTML } from 'linkedom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mergeLayers, type ConfigInput } from '../../app/config.js';
import { startScriptedServer, type ScriptedServer } from '../../services/llm/fixtures/scripted-server.js';
import { CLAIM_GROUPS, claimEngines, serveClaimWeb } from '../sandbox/claim-pages.js';
import { startSandboxWeb, type SandboxWeb } from '../sandbox/sandbox-web.js';
import { startQuarry, type RunningQuarry } from './harness.js';
import { GiveUp, until } from '../sandbox/until.js';

let web: SandboxWeb;
let quarry: RunningQuarry;
/** Every claim answer of this file, for the snippet check at the end. */
const answers: any[] = [];

function verifyConfig(webUrl: string): ConfigInput {
  return { customEngines: claimEngines(webUrl, CLAIM_GROUPS), search: { defaultEngines: ['find_eiffel'] } };
}

beforeAll(async () => {
  web = await startSandboxWeb();
  serveClaimWeb(web);
  quarry = await startQuarry(web, verifyConfig(web.url));
}, 60_000);

afterAll(async () => {
  await quarry?.close();
  await web?.close();
});

async function verify(body: Record<string, unknown>) {
  const res = await quarry.post('/api/v1/verify/claim', body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  answers.push(res.body);
  return res.body;
}

describe('verify/claim', () => {
  it('answers true for a claim two pages state, with the sentences that say so', async () => {
    const out = await verify({ claim: 'The Eiffel Tower was completed in 1889.' });
    expect(out.verdict).toBe('true');
    expect(out.confidence).toBeGreaterThan(0.5);
    expect(out.contradicting_evidence).toEqual([]);
    expect(out.supporting_evidence.map((e: any) => e.snippet)).toEqual(
      expect.arrayContaining([
        "The Eiffel Tower was completed in 1889 as the entrance arch to the World's Fair in Paris.",
      ]),
    );
    expect(out.supporting_evidence.every((e: any) => e.stance === 'supporting' && e.credibility_score === 0.5)).toBe(
      true,
    );
    expect(out.sources_checked).toBe(2);
    expect(out.key_facts).toEqual(['The Eiffel Tower was completed in 1889 — supported']);
    expect(out.model_used).toBe('rules');
    expect(out.queries).toEqual(['The Eiffel Tower was completed in 1889']);
  });

  // Offline the verdict is the word-overlap rule's (docs/verify.md, "Offline verdict"): it cannot say false or
  // misleading. The stance rules still judge every sentence, and what they find is answered beside the verdict.
  it('offline, answers true for a claim a page negates in its own words, and lists the negating sentences', async () => {
    const out = await verify({
      claim: 'The Great Wall of China is visible from the Moon with the naked eye',
      engines: ['find_wall'],
    });
    expect(out.verdict).toBe('true');
    expect(out.contradicting_evidence.map((e: any) => e.snippet)).toEqual(
      expect.arrayContaining([
        'The Great Wall of China is not visible from the Moon with the naked eye, despite the popular belief.',
        'The claim that the Great Wall of China can be seen from the Moon with the naked eye is a myth.',
      ]),
    );
    expect(out.contradicting_evidence.every((e: any) => e.stance === 'contradicting')).toBe(true);
    expect(out.key_facts).toEqual([
      'The Great Wall of China is visible from the Moon with the naked eye — contradicted',
    ]);
    expect(out.summary).toMatch(/^True \(word-overlap rule, offline\): one line of [^ ]+ states 100 % of the claim/);
    expect(out.summary).toMatch(/read against .* \(see contradicting_evidence\)/);
  });

  it('offline, answers true for a claim whose figure differs, with the differing figure as contradicting', async () => {
    const out = await verify({ claim: 'The Eiffel Tower is 500 metres tall' });
    expect(out.verdict).toBe('true');
    expect(out.summary).toMatch(/states 60 % of the claim's words: "The tower is 330 metres tall/);
    expect(out.contradicting_evidence[0].snippet).toMatch(/330 metres/);
    expect(out.key_facts).toEqual(['The Eiffel Tower is 500 metres tall — contradicted']);
  });

  it('answers partially_true when the best line states part of the claim: one fact, not the other', async () => {
    const out = await verify({
      claim: 'The Eiffel Tower was completed in 1889, and it is painted with gold leaf by hand every single year',
    });
    expect(out.verdict).toBe('partially_true');
    expect(out.summary).toMatch(/^Partially true \(word-overlap rule, offline\): .* holds 45 % of its words/);
    expect(out.key_facts).toEqual([
      'The Eiffel Tower was completed in 1889 — supported',
      'it is painted with gold leaf by hand every single year — no evidence found',
    ]);
    // Six of the claim's eleven words in one line make the rule's true: the two-fact claim below is answered true,
    // though its second fact is only partly on the pages (as key_facts says).
    const more = await verify({
      claim: 'The Eiffel Tower was completed in 1889, and it is painted with gold leaf every year',
    });
    expect(more.verdict).toBe('true');
    expect(more.key_facts).toEqual([
      'The Eiffel Tower was completed in 1889 — supported',
      'it is painted with gold leaf every year — partly supported: part of it is on the pages',
    ]);
  });

  it('offline, answers true for a claim the evidence qualifies, and names the qualifying sentence in nuances', async () => {
    const out = await verify({ claim: 'Arctic sea ice grew in 2013', engines: ['find_seaice'] });
    expect(out.verdict).toBe('true');
    expect(out.nuances).toMatch(/is qualified by .*the long-term trend is still declining/);
  });

  it('answers unverifiable with low confidence when the pages read do not mention the claim', async () => {
    const out = await verify({ claim: 'Octopuses have three hearts and blue blood', engines: ['find_unrelated'] });
    expect(out.verdict).toBe('unverifiable');
    expect(out.confidence).toBeLessThan(0.2);
    expect(out.sources_checked).toBe(2);
    expect(out.supporting_evidence).toEqual([]);
    expect(out.contradicting_evidence).toEqual([]);
    expect(out.summary).toMatch(/none of the 2 pages read mentions/);
  });

  it('leaves the evidence out when include_sources is false, and searches more with depth thorough', async () => {
    const quiet = await verify({ claim: 'The Eiffel Tower was completed in 1889', include_sources: false });
    expect(quiet.verdict).toBe('true');
    expect(quiet.supporting_evidence).toEqual([]);
    const thorough = await verify({ claim: 'The Eiffel Tower was completed in 1889', depth: 'thorough' });
    expect(thorough.verdict).toBe('true');
    expect(thorough.queries).toEqual([
      'The Eiffel Tower was completed in 1889',
      'The Eiffel Tower was completed in 1889 fact check',
    ]);
  });

  it('searches again, by its key terms, for a fact the first round found no evidence for (thorough)', async () => {
    const out = await verify({
      claim: 'The Eiffel Tower was completed in 1889, and it is painted with gold leaf every year',
      depth: 'thorough',
    });
    // The rule's verdict (true: see above); the second round is what this checks.
    expect(out.verdict).toBe('true');
    expect(out.queries, JSON.stringify(out.queries)).toContain('painted gold leaf every');
    expect(out.sources_checked).toBe(2);
  });

  it('refuses bad input with a 4xx naming the field', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ claim: '' }, /claim/],
      [{ claim: '   ' }, /claim/],
      [{}, /claim/],
      [{ claim: 'x', depth: 'deep' }, /depth/],
      [{ claim: 'x', include_sources: 'yes' }, /include_sources/],
      [{ claim: 'x', engines: ['no_such_engine'] }, /no_such_engine/],
      [{ claim: 'x'.repeat(2001) }, /claim/],
    ];
    for (const [body, field] of cases) {
      const res = await quarry.post('/api/v1/verify/claim', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message).toMatch(field);
    }
  });
});

describe('verify/claim with a language model', () => {
  let llm: ScriptedServer;
  let withModel: RunningQuarry;
  const reply = (content: unknown) => ({
    json: {
      id: 'x',
      model: 'scripted-7b',
      choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: JSON.stringify(content) } }],
    },
  });

  beforeAll(async () => {
    llm = await startScriptedServer();
    withModel = await startQuarry(
      web,
      mergeLayers(verifyConfig(web.url) as Record<string, unknown>, {
        llm: {
          fast: { provider: 'openai-compatible', baseUrl: `${llm.origin}/v1`, model: 'scripted-7b', maxRetries: 0 },
        },
      }) as ConfigInput,
    );
  }, 60_000);
  afterAll(async () => {
    await withModel?.close();
    await llm?.close();
  });

  it('lets the model split the claim and judge the retrieved sentences; the evidence is still sentences of the pages', async () => {
    llm.script(
      reply({ facts: [{ text: 'The Great Wall of China can be seen from the Moon', central: true }] }),
      reply({
        judgements: [
          { id: 0, stance: 'contradicts', strength: 0.9, reason: 'says it is not visible' },
          { id: 1, stance: 'contradicts', strength: 0.8, reason: 'calls it a myth' },
        ],
      }),
    );
    const res = await withModel.post('/api/v1/verify/claim', {
      claim: 'The Great Wall of China is visible from the Moon with the naked eye',
      engines: ['find_wall'],
    });
    expect(res.status).toBe(200);
    answers.push(res.body);
    expect(res.body.model_used).toBe('scripted-7b');
    expect(res.body.verdict).toBe('false');
    expect(res.body.key_facts).toEqual(['The Great Wall of China can be seen from the Moon — contradicted']);
    expect(res.body.contradicting_evidence).toHaveLength(2);
    const judged = String((llm.received[1]!.body.messages as Array<{ content: string }>).at(-1)!.content);
    expect(judged).toContain('[0] ');
    expect(judged).toContain('Fact: The Great Wall of China can be seen from the Moon');
  });

  it('answers misleading when the model finds the central fact supported and another contradicted', async () => {
    llm.script(
      reply({
        facts: [
          { text: 'The Eiffel Tower was completed in 1889', central: true },
          { text: 'The Eiffel Tower is 500 metres tall', central: false },
        ],
      }),
      reply({ judgements: [{ id: 0, stance: 'supports', strength: 0.9, reason: 'states the year' }] }),
      reply({ judgements: [{ id: 0, stance: 'contradicts', strength: 0.9, reason: 'gives another height' }] }),
    );
    const res = await withModel.post('/api/v1/verify/claim', {
      claim: 'The Eiffel Tower, completed in 1889, is 500 metres tall',
    });
    expect(res.status).toBe(200);
    answers.push(res.body);
    expect(res.body.model_used).toBe('scripted-7b');
    expect(res.body.verdict).toBe('misleading');
    expect(res.body.key_facts).toEqual([
      'The Eiffel Tower was completed in 1889 — supported',
      'The Eiffel Tower is 500 metres tall — contradicted',
    ]);
    expect(res.body.summary).toMatch(/^Misleading: "The Eiffel Tower was completed in 1889" is supported, but/);
  });

  it('falls back to the rules when the model answers something unreadable', async () => {
    llm.script({
      status: 200,
      json: {
        id: 'x',
        model: 'scripted-7b',
        choices: [
          { index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'I cannot help with that.' } },
        ],
      },
    });
    const res = await withModel.post('/api/v1/verify/claim', { claim: 'The Eiffel Tower was completed in 1889' });
    expect(res.status).toBe(200);
    answers.push(res.body);
    expect(res.body.model_used).toBe('rules');
    expect(res.body.verdict).toBe('true');
  });
});

describe('verify/source', () => {
  it('rates a rated domain with its published figure and an unknown one by marked rules', async () => {
    const rated = await quarry.post('/api/v1/verify/source', { url: 'https://www.reuters.com/world/' });
    expect(rated.status).toBe(200);
    expect(rated.body).toMatchObject({ domain: 'reuters.com', credibility_score: 1, category: 'news', rated: true });
    const unknown = await quarry.post('/api/v1/verify/source', { url: 'https://blog.unrated-example.org/post' });
    expect(unknown.body).toMatchObject({
      domain: 'unrated-example.org',
      rated: false,
      category: 'unknown',
      factual_reporting: 'unknown',
      bias_rating: 'unknown',
    });
    expect(unknown.body.notes).toMatch(/rules, not ratings/);
  });

  it('refuses a URL that is not http(s), naming the field', async () => {
    for (const url of ['ftp://example.com/x', 'not a url', 'javascript:alert(1)']) {
      const res = await quarry.post('/api/v1/verify/source', { url });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(/url/);
    }
  });
});

async function pollUntilDone(target: { get: RunningQuarry['get'] }, pollUrl: string, timeoutMs = 90_000): Promise<any> {
  let last: unknown;
  return until(
    () => `the batch to finish; still processing: ${JSON.stringify(last)}`,
    async () => {
      const res = await target.get(pollUrl);
      if (res.status !== 200) throw new GiveUp(`polling the batch answered ${res.status}: ${JSON.stringify(res.body)}`);
      last = res.body;
      return res.body.status !== 'processing' && res.body;
    },
    timeoutMs,
    250,
  );
}

describe('verify/batch', () => {
  const claims = [
    'The Eiffel Tower was completed in 1889',
    'The Eiffel Tower is 500 metres tall',
    'The Great Wall of China is visible from the Moon with the naked eye',
    'Octopuses have three hearts and blue blood',
    'Gustave Eiffel designed the tower',
    'The Eiffel Tower was the tallest structure in the world until 1930',
    'The Eiffel Tower is repainted every seven years',
    'Nearly seven million people visit the Eiffel Tower every year',
    'The Eiffel Tower is made of wrought iron',
    'The Eiffel Tower stands in Paris',
  ];

  it('runs 10 claims as a job, polled until completed, results in the order given', async () => {
    const res = await quarry.post('/api/v1/verify/batch', { claims });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('processing');
    expect(res.body.job_id).toMatch(/^job_[a-f0-9]{24}$/);
    expect(res.body.poll_url).toBe(`/api/v1/verify/batch/${res.body.job_id}`);
    expect(res.body.claims_count).toBe(10);
    const done = await pollUntilDone(quarry, res.body.poll_url);
    expect(done.status).toBe('completed');
    expect(done.results.map((r: any) => r.claim)).toEqual(claims);
    expect(done.results[0].verdict).toBe('true');
    // Searched on the Eiffel pages (the default engine), one of its five words ("three") is on a line there: 20 %, the
    // offline rule's lower threshold, so partially_true — where the pages of its own engine leave it unverifiable.
    expect(done.results[3].verdict).toBe('partially_true');
    for (const r of done.results) expect(Object.keys(r).sort()).toEqual(['claim', 'confidence', 'summary', 'verdict']);
  }, 120_000);

  it('answers a small batch completed at once', async () => {
    const res = await quarry.post('/api/v1/verify/batch', { claims: ['The Eiffel Tower was completed in 1889'] });
    expect(res.body.status).toBe('completed');
    expect(res.body.results).toHaveLength(1);
    expect(res.body.results[0].verdict).toBe('true');
  });

  it('refuses 11 claims, an empty claim and an unknown job, naming the field', async () => {
    const eleven = await quarry.post('/api/v1/verify/batch', {
      claims: Array.from({ length: 11 }, (_, i) => `claim ${i}`),
    });
    expect(eleven.status).toBe(400);
    expect(eleven.body.error.message).toMatch(/claims/);
    const empty = await quarry.post('/api/v1/verify/batch', { claims: ['fine', ''] });
    expect(empty.status).toBe(400);
    expect(empty.body.error.message).toMatch(/claims\.1/);
    const none = await quarry.post('/api/v1/verify/batch', { claims: [] });
    expect(none.status).toBe(400);
    const unknown = await quarry.get(`/api/v1/verify/batch/job_${'0'.repeat(24)}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toMatch(/job_id/);
    const malformed = await quarry.get('/api/v1/verify/batch/nope');
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.message).toMatch(/job_id/);
  });
});

describe('a batch survives a restart', () => {
  it('resumes after the process stops mid-batch, verifying only the claims not yet finished', async () => {
    const slowWeb = await startSandboxWeb();
    serveClaimWeb(slowWeb, { delayMs: 700 });
    const dataDir = mkdtempSync(join(tmpdir(), 'quarry-verify-restart-'));
    // Both starts share the data directory, as one process stopped and started again would.
    const start = () => startQuarry(slowWeb, verifyConfig(slowWeb.url), { dataDir });
    const pageFetches = () => slowWeb.requestLog().filter((r) => r.path.startsWith('/claims/')).length;
    const batch = [
      'The Eiffel Tower was completed in 1889',
      'The Eiffel Tower is 500 metres tall',
      'Gustave Eiffel designed the tower',
      'The Eiffel Tower stands in Paris',
    ];
    try {
      const first = await start();
      const accepted = await first.post('/api/v1/verify/batch', { claims: batch, wait_seconds: 0 });
      expect(accepted.body.status).toBe('processing');
      const completedBefore: number = await until(
        'a claim to finish before the restart',
        async () => (await first.get(accepted.body.poll_url)).body.claims_completed,
        60_000,
      );
      await first.close();
      const fetchesBefore = pageFetches();
      const finishedBefore = await (async () => completedBefore)();
      expect(finishedBefore).toBeLessThan(batch.length);

      const second = await start();
      try {
        const done = await pollUntilDone(second, accepted.body.poll_url);
        expect(done.status).toBe('completed');
        expect(done.results.map((r: any) => r.claim)).toEqual(batch);
        expect(done.results[0].verdict).toBe('true');
        // Each claim reads the group's two pages; the claims finished before the restart were not verified again.
        const fetchesAfter = pageFetches() - fetchesBefore;
        expect(fetchesAfter).toBeLessThanOrEqual(2 * (batch.length - finishedBefore));
      } finally {
        await second.close();
      }
    } finally {
      await slowWeb.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});

describe('evidence', () => {
  it('every snippet of every answer above occurs in the page at its url', async () => {
    const items = answers.flatMap((a) => [...a.supporting_evidence, ...a.contradicting_evidence]);
    expect(items.length).toBeGreaterThan(8);
    const squash = (s: string) => s.replace(/\s+/g, ' ').trim();
    for (const item of items) {
      const html = await (await fetch(item.url)).text();
      const { document } = parseHTML(html);
      expect(squash(document.body.textContent ?? ''), item.url).toContain(squash(item.snippet));
    }
  });
});
