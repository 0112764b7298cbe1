/**
 * Planning a research run: the sub-questions to search for. With a language
 * model (the fast tier) it writes them; without one, or when it fails, they
 * come from templates: the agent area's facets of a question (crossed with
 * the focus areas when given), or the RAG area's ten categories.
 */
import type { Logger } from '../../core/logger.js';
import { parseModelJson } from '../llm/json-output.js';
import type { LlmClient } from '../llm/types.js';

export interface Template {
  label: string;
  render(subject: string): string;
}

/** Facets of a question, in the order they are used (agent research). */
export const FACETS: Template[] = [
  { label: 'overview', render: (q) => q },
  { label: 'mechanism', render: (q) => `how does ${q} work` },
  { label: 'benefits', render: (q) => `${q} benefits and advantages` },
  { label: 'problems', render: (q) => `${q} problems, risks and limitations` },
  { label: 'history', render: (q) => `${q} history and background` },
  { label: 'latest', render: (q) => `${q} latest developments` },
  { label: 'comparison', render: (q) => `${q} compared with alternatives` },
  { label: 'examples', render: (q) => `${q} examples and case studies` },
];

export const RAG_CATEGORIES = [
  'overview',
  'history',
  'current_state',
  'technical',
  'practical',
  'comparison',
  'expert_opinion',
  'future_trends',
  'case_studies',
  'best_practices',
] as const;
export type RagCategory = (typeof RAG_CATEGORIES)[number];

/** One query template per RAG category. */
export const CATEGORY_TEMPLATES: Record<RagCategory, Template> = {
  overview: { label: 'overview', render: (t) => `${t} overview` },
  history: { label: 'history', render: (t) => `${t} history` },
  current_state: { label: 'current_state', render: (t) => `${t} current state and latest developments` },
  technical: { label: 'technical', render: (t) => `${t} technical details how it works` },
  practical: { label: 'practical', render: (t) => `${t} practical guide how to` },
  comparison: { label: 'comparison', render: (t) => `${t} comparison with alternatives` },
  expert_opinion: { label: 'expert_opinion', render: (t) => `${t} expert opinion and analysis` },
  future_trends: { label: 'future_trends', render: (t) => `${t} future trends and outlook` },
  case_studies: { label: 'case_studies', render: (t) => `${t} case studies and examples` },
  best_practices: { label: 'best_practices', render: (t) => `${t} best practices and tips` },
};

export interface Plan {
  questions: string[];
  /** The model that wrote them, or "templates". */
  plannedBy: string;
}

/**
 * Template questions: with focus areas, each focus area crossed with the templates in turn
 * ("<subject> <focus>", then the facets of "<subject> <focus>"); else the templates of the subject.
 */
export function templateQuestions(
  subject: string,
  count: number,
  templates: Template[],
  focusAreas: string[] = [],
): string[] {
  const subjects = focusAreas.length > 0 ? focusAreas.map((focus) => `${subject} ${focus}`) : [subject];
  const out: string[] = [];
  for (let round = 0; out.length < count && round < templates.length; round++) {
    for (const s of subjects) {
      if (out.length >= count) break;
      const question = templates[round]!.render(s).replace(/\s+/g, ' ').trim();
      if (!out.includes(question)) out.push(question);
    }
  }
  return out;
}

export interface PlanOptions {
  count: number;
  templates: Template[];
  focusAreas?: string[];
  /** What the questions are for, told to the model (e.g. the categories to cover). */
  guidance?: string;
  llm: LlmClient | null;
  language?: string;
  signal?: AbortSignal;
  logger?: Pick<Logger, 'warn'>;
}

export async function planQuestions(subject: string, options: PlanOptions): Promise<Plan> {
  const fallback = (): Plan => ({
    questions: templateQuestions(subject, options.count, options.templates, options.focusAreas),
    plannedBy: 'templates',
  });
  if (!options.llm) return fallback();
  try {
    const response = await options.llm.complete({
      system:
        'You plan web research. Write search queries that together cover the subject: each one short (3 to ' +
        '10 words), specific, and different from the others. Answer with JSON: {"queries": [string, ...]}.',
      messages: [
        {
          role: 'user',
          content: [
            `Subject: ${subject}`,
            `Number of queries: ${options.count}`,
            options.focusAreas?.length ? `Focus areas (cover each): ${options.focusAreas.join('; ')}` : '',
            options.guidance ?? '',
            options.language && options.language !== 'en'
              ? `Write the queries in the language with code "${options.language}".`
              : '',
          ]
            .filter(Boolean)
            .join('\n'),
        },
      ],
      json: true,
      temperature: 0.2,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const answer = (response.json ?? parseModelJson(response.text)) as { queries?: unknown };
    const written = Array.isArray(answer?.queries)
      ? answer.queries.filter((q): q is string => typeof q === 'string' && q.trim().length > 0)
      : [];
    const questions = [...new Set(written.map((q) => q.replace(/\s+/g, ' ').trim().slice(0, 300)))].slice(
      0,
      options.count,
    );
    if (questions.length === 0) throw new Error('the model wrote no queries');
    // The subject itself is always searched first.
    if (!questions.some((q) => q.toLowerCase() === subject.toLowerCase())) questions.unshift(subject);
    return { questions: questions.slice(0, Math.max(options.count, 1)), plannedBy: response.model };
  } catch (error) {
    if (options.signal?.aborted) throw error;
    options.logger?.warn({ err: error }, 'research plan: the model failed; using templates');
    return fallback();
  }
}
