/**
 * Planning a research run: the template questions (pure), and planQuestions with a real
 * OpenAI-compatible client talking to a local scripted model endpoint, or with none.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../core/logger.js';
import { chatCompletionReply, startScriptedServer, type ScriptedServer } from '../llm/fixtures/scripted-server.js';
import { OpenAiCompatibleClient } from '../llm/openai-compatible.js';
import { CATEGORY_TEMPLATES, FACETS, planQuestions, RAG_CATEGORIES, templateQuestions } from './plan.js';

/** A chat completion from the model "planner-7b" whose message is `content`. */
const planner = (content: unknown) => chatCompletionReply(content, { model: 'planner-7b', usage: false });

describe('templateQuestions', () => {
  it('renders the facets of the subject in their order, as many as asked', () => {
    expect(templateQuestions('heat pump', 4, FACETS)).toEqual([
      'heat pump',
      'how does heat pump work',
      'heat pump benefits and advantages',
      'heat pump problems, risks and limitations',
    ]);
  });

  it('stops at the number of templates when more questions are asked than there are templates', () => {
    const questions = templateQuestions('heat pump', 20, FACETS);
    expect(questions).toHaveLength(FACETS.length);
    expect(questions.at(-1)).toBe('heat pump examples and case studies');
  });

  it('crosses focus areas with the templates in turn: every focus area first, then the next template of each', () => {
    expect(templateQuestions('heat pump', 5, FACETS, ['noise', 'running cost'])).toEqual([
      'heat pump noise',
      'heat pump running cost',
      'how does heat pump noise work',
      'how does heat pump running cost work',
      'heat pump noise benefits and advantages',
    ]);
  });

  it('collapses whitespace and drops a question two templates render alike', () => {
    const twins = [
      { label: 'a', render: (s: string) => `${s}  guide` },
      { label: 'b', render: (s: string) => ` ${s} guide ` },
      { label: 'c', render: (s: string) => `${s} history` },
    ];
    expect(templateQuestions('heat   pump', 3, twins)).toEqual(['heat pump guide', 'heat pump history']);
  });

  it('has one RAG template per category, labelled with it, each naming the topic', () => {
    expect(Object.keys(CATEGORY_TEMPLATES).sort()).toEqual([...RAG_CATEGORIES].sort());
    for (const category of RAG_CATEGORIES) {
      expect(CATEGORY_TEMPLATES[category].label).toBe(category);
      expect(CATEGORY_TEMPLATES[category].render('geothermal heating')).toMatch(/^geothermal heating /);
    }
    expect(
      templateQuestions(
        'geothermal heating',
        3,
        RAG_CATEGORIES.map((c) => CATEGORY_TEMPLATES[c]),
      ),
    ).toEqual([
      'geothermal heating overview',
      'geothermal heating history',
      'geothermal heating current state and latest developments',
    ]);
  });
});

describe('planQuestions', () => {
  let model: ScriptedServer;
  let llm: OpenAiCompatibleClient;
  const warnings: unknown[] = [];
  const logger = { warn: (...args: unknown[]) => void warnings.push(args) };

  beforeAll(async () => {
    model = await startScriptedServer();
    llm = new OpenAiCompatibleClient({
      model: 'planner-7b',
      baseUrl: `${model.origin}/v1`,
      timeoutMs: 5000,
      maxRetries: 0,
      logger: silentLogger(),
    });
  });
  afterAll(async () => {
    await model?.close();
  });
  beforeEach(() => {
    warnings.length = 0;
  });

  it('without a model, plans from the templates (with the focus areas) and says so', async () => {
    const plan = await planQuestions('heat pump', { count: 3, templates: FACETS, focusAreas: ['noise'], llm: null });
    expect(plan).toEqual({
      questions: ['heat pump noise', 'how does heat pump noise work', 'heat pump noise benefits and advantages'],
      plannedBy: 'templates',
    });
  });

  it("with a model, searches the subject first, then the model's queries, cleaned, without repeats, cut to the count", async () => {
    model.script(
      planner({
        queries: [
          '  heat pump   refrigerant types ',
          'heat pump refrigerant types',
          '',
          42,
          'heat pump coefficient of performance',
          'heat pump installation cost',
        ],
      }),
    );
    const plan = await planQuestions('heat pump', { count: 3, templates: FACETS, llm, logger });
    expect(plan).toEqual({
      questions: ['heat pump', 'heat pump refrigerant types', 'heat pump coefficient of performance'],
      plannedBy: 'planner-7b',
    });
    expect(warnings).toEqual([]);
  });

  it('does not search the subject twice when the model wrote it (in any case)', async () => {
    model.script(planner({ queries: ['Heat Pump', 'heat pump history'] }));
    const plan = await planQuestions('heat pump', { count: 2, templates: FACETS, llm });
    expect(plan.questions).toEqual(['Heat Pump', 'heat pump history']);
  });

  it('tells the model the count, the focus areas, the guidance and a language other than English', async () => {
    model.script(planner({ queries: ['pompe à chaleur bruit'] }));
    await planQuestions('pompe à chaleur', {
      count: 4,
      templates: FACETS,
      focusAreas: ['bruit', 'coût'],
      guidance: 'Cover the categories: overview, history.',
      language: 'fr',
      llm,
    });
    const prompt = JSON.stringify(model.received.at(-1)!.body);
    expect(prompt).toContain('Subject: pompe à chaleur');
    expect(prompt).toContain('Number of queries: 4');
    expect(prompt).toContain('Focus areas (cover each): bruit; coût');
    expect(prompt).toContain('Cover the categories: overview, history.');
    expect(prompt).toContain('language with code \\"fr\\"');
  });

  it.each([
    ['fails', { status: 500, json: { error: { message: 'down' } } }],
    ['writes no queries', planner({ queries: [] })],
    ['writes no JSON', planner('Here are some ideas: heat pumps, history.')],
  ])('falls back to the templates, with a warning, when the model %s', async (_case, reply) => {
    model.script(reply);
    const plan = await planQuestions('heat pump', { count: 2, templates: FACETS, llm, logger });
    expect(plan).toEqual({ questions: ['heat pump', 'how does heat pump work'], plannedBy: 'templates' });
    expect(warnings).toHaveLength(1);
  });

  it('gives up, not falls back, when the caller cancels', async () => {
    model.script({ hang: true });
    const controller = new AbortController();
    const planning = planQuestions('heat pump', {
      count: 2,
      templates: FACETS,
      llm,
      logger,
      signal: controller.signal,
    });
    controller.abort();
    await expect(planning).rejects.toBeDefined();
    expect(warnings).toEqual([]);
  });
});
