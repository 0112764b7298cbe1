/**
 * A research report from ranked sources: an executive summary, a detailed
 * analysis (markdown, one section per sub-question) and key findings, every
 * claim cited [n] → the returned sources.
 *
 * Extractive (no LLM): each section is the extractive answer to its question;
 * the key findings are the best distinct quoted sentences over all sections;
 * the summary is the extractive answer to the main question (or, when that
 * finds nothing, the three best findings).
 * With an LLM (the quality tier): one call writes all three as JSON; every
 * piece goes through the same citation check as answers, and a piece that
 * fails it is replaced by its extractive counterpart.
 * Every piece is markdown with page-derived text escaped (services/markdown).
 */
import type { Logger } from '../../core/logger.js';
import type { PassageReranker } from '../ranking/reranker.js';
import type { Embedder } from '../embeddings/types.js';
import { EXTRACTIVE_MODEL } from '../llm/registry.js';
import { parseModelJson } from '../llm/json-output.js';
import type { LlmClient } from '../llm/types.js';
import type { AnswerSourceWithUrl } from './answer.js';
import { NO_ANSWER } from './citations.js';
import { extractiveAnswer, jaccard, renderQuotes, type Answer, type QuotedSentence } from './extractive.js';
import { ANSWER_SYSTEM_PROMPT, checkedAnswer, renderSources } from './written.js';
import { escapeMarkdownText } from '../markdown/escape.js';
import { contentTokens } from '../ranking/tokens.js';

export interface ReportQuestion {
  question: string;
  /** The returned sources that were read, with their passages ranked for this question. */
  sources: AnswerSourceWithUrl[];
}

export interface ReportOptions {
  llm: LlmClient | null;
  embedder: Embedder | null;
  /** A configured cross-encoder orders the sentences an extractive report quotes. */
  reranker?: PassageReranker | null;
  /** The returned sources ranked for the main question (for the summary). */
  summarySources: AnswerSourceWithUrl[];
  includeSummary: boolean;
  includeAnalysis: boolean;
  maxFindings?: number;
  signal?: AbortSignal;
  logger?: Pick<Logger, 'warn'>;
}

export interface Report {
  executive_summary: string;
  detailed_analysis: string;
  key_findings: string[];
  /** Sub-questions no source answered. */
  unanswered: string[];
  /** The model that wrote (part of) the report, or "extractive". */
  model: string;
}

const SECTION_SENTENCES = 4;
const SUMMARY_SENTENCES = 3;
const DEFAULT_FINDINGS = 6;

/** A section heading from a sub-question (the caller's words or the model's): one line, escaped. */
function heading(question: string): string {
  const text = question.replace(/\s+/g, ' ').trim();
  return escapeMarkdownText(text.charAt(0).toUpperCase() + text.slice(1));
}

function contentWords(text: string): Set<string> {
  return new Set(contentTokens(text));
}

function bestFindings(answers: Answer[], count: number): QuotedSentence[] {
  const pooled = answers.flatMap((a) => a.sentences).sort((a, b) => b.score - a.score);
  const chosen: Array<QuotedSentence & { words: Set<string> }> = [];
  for (const sentence of pooled) {
    if (chosen.length >= count) break;
    const words = contentWords(sentence.text);
    if (chosen.some((c) => c.text === sentence.text || jaccard(c.words, words) >= 0.6)) continue;
    chosen.push({ ...sentence, words });
  }
  return chosen.map(({ words: _words, ...sentence }) => sentence);
}

async function extractiveReport(query: string, questions: ReportQuestion[], options: ReportOptions): Promise<Report> {
  const common = {
    embedder: options.embedder,
    reranker: options.reranker ?? null,
    ...(options.signal ? { signal: options.signal } : {}),
  };
  const answers: Answer[] = [];
  for (const q of questions)
    answers.push(await extractiveAnswer(q.question, q.sources, { ...common, maxSentences: SECTION_SENTENCES }));
  const findings = bestFindings(answers, options.maxFindings ?? DEFAULT_FINDINGS);
  let summary = options.includeSummary
    ? (await extractiveAnswer(query, options.summarySources, { ...common, maxSentences: SUMMARY_SENTENCES })).text
    : '';
  if (options.includeSummary && summary === NO_ANSWER && findings.length > 0)
    summary = renderQuotes(findings.slice(0, SUMMARY_SENTENCES));
  return {
    executive_summary: summary,
    detailed_analysis: options.includeAnalysis
      ? questions.map((q, i) => `## ${heading(q.question)}\n\n${answers[i]!.text}`).join('\n\n')
      : '',
    key_findings: findings.map((f) => renderQuotes([f])),
    unanswered: questions.filter((_, i) => !answers[i]!.answered).map((q) => q.question),
    model: EXTRACTIVE_MODEL,
  };
}

/** Every returned source once, with its best passages over all questions. */
function promptSources(questions: ReportQuestion[], summarySources: AnswerSourceWithUrl[]) {
  const byN = new Map<
    number,
    { n: number; title: string; url: string; passages: Array<{ text: string; score: number }> }
  >();
  for (const source of [...summarySources, ...questions.flatMap((q) => q.sources)]) {
    const entry = byN.get(source.n) ?? { n: source.n, title: source.title, url: source.url, passages: [] };
    for (const p of source.passages.slice(0, 3))
      if (!entry.passages.some((e) => e.text === p.text))
        entry.passages.push({ text: p.text, score: p.relevance.score });
    byN.set(source.n, entry);
  }
  return [...byN.values()]
    .sort((a, b) => a.n - b.n)
    .map((s) => ({
      n: s.n,
      title: s.title,
      url: s.url,
      passages: s.passages.sort((a, b) => b.score - a.score).map((p) => p.text),
    }));
}

export async function writeReport(query: string, questions: ReportQuestion[], options: ReportOptions): Promise<Report> {
  const extractive = await extractiveReport(query, questions, options);
  if (!options.llm) return extractive;
  const sources = promptSources(questions, options.summarySources);
  if (sources.length === 0) return extractive;
  try {
    const response = await options.llm.complete({
      system: `${ANSWER_SYSTEM_PROMPT} Answer with JSON: {"executive_summary": string, "sections": [{"question": string, "analysis": string}], "key_findings": [string, ...]}. Every sentence of every field carries a citation.`,
      messages: [
        {
          role: 'user',
          content: `Research question: ${query}\n\nSub-questions (one section each, in this order):\n${questions.map((q, i) => `${i + 1}. ${q.question}`).join('\n')}\n\nWrite an executive summary of three to five sentences, a section of one or two paragraphs per sub-question, and three to eight key findings.\n\nSources:\n${renderSources(sources, 24_000)}`,
        },
      ],
      json: true,
      temperature: 0.2,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const written = (response.json ?? parseModelJson(response.text)) as {
      executive_summary?: unknown;
      sections?: unknown;
      key_findings?: unknown;
    };
    const allowed = sources.map((s) => ({ n: s.n }));
    const check = (text: unknown) => (typeof text === 'string' ? checkedAnswer(text, allowed, response.model) : null);
    const summary = check(written.executive_summary);
    const sections = Array.isArray(written.sections) ? written.sections : [];
    const analyses = questions.map((_, i) => check((sections[i] as { analysis?: unknown } | undefined)?.analysis));
    const findings = (Array.isArray(written.key_findings) ? written.key_findings : [])
      .map(check)
      .filter((f) => f !== null && f.text !== NO_ANSWER);
    const usedModel = summary !== null || analyses.some((a) => a !== null) || findings.length > 0;
    return {
      executive_summary: options.includeSummary ? (summary?.text ?? extractive.executive_summary) : '',
      detailed_analysis: options.includeAnalysis
        ? questions
            .map(
              (q, i) =>
                `## ${heading(q.question)}\n\n${analyses[i]?.text ?? extractiveSection(extractive.detailed_analysis, i)}`,
            )
            .join('\n\n')
        : '',
      key_findings: findings.length > 0 ? findings.map((f) => f!.text) : extractive.key_findings,
      unanswered: extractive.unanswered.filter(
        (question) => analyses[questions.findIndex((q) => q.question === question)] == null,
      ),
      model: usedModel ? response.model : EXTRACTIVE_MODEL,
    };
  } catch (error) {
    if (options.signal?.aborted) throw error;
    options.logger?.warn({ err: error }, 'report: the model failed; the report is extractive');
    return extractive;
  }
}

/** The body of the i-th "## " section of an analysis. */
function extractiveSection(analysis: string, index: number): string {
  const sections = analysis.split(/^## .*$/m).slice(1);
  return (sections[index] ?? NO_ANSWER).trim();
}
