/**
 * The analysis of a check's new results. Without deep_analysis: one line,
 * the count and the titles. With it, the new pages are read and what they
 * say is summarised: by the language model as a cited answer of
 * services/answers (its [n] checked against the new results), or, without a
 * model (or when it gives nothing usable), extractively: from each page the
 * sentence that best covers the topic and keywords (the one extractive
 * summary, services/answers/summary.ts). analysis_method and
 * model_used say which.
 */
import { NO_ANSWER } from '../../services/answers/citations.js';
import { extractiveSummary as summariseExtractively } from '../../services/answers/summary.js';
import { writeAnswer, type PromptSource } from '../../services/answers/written.js';
import type { LlmClient } from '../../services/llm/types.js';
import { cutPassages } from '../../services/ranking/passages.js';
import type { MonitorTerms } from './query.js';
import type { NewResult } from './schemas.js';

export interface Analysis {
  analysis: string;
  method: 'llm' | 'extractive' | 'titles';
  model: string | null;
}

/** A page read for the analysis: its text, or '' when it could not be read. */
export interface ReadPage {
  url: string;
  title: string;
  text: string;
}

const TITLES_SHOWN = 8;
const SENTENCE_CHARS = 300;
const PAGE_CHARS_FOR_MODEL = 2500;

const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`);

/** "3 new results: A; B; C" — the line every check without deep_analysis gets. */
export function titlesLine(items: NewResult[], baseline: boolean): string {
  if (items.length === 0) return baseline ? 'Baseline: nothing found yet.' : 'No new results.';
  const titles = items.slice(0, TITLES_SHOWN).map((item) => clip(item.title || item.url, 120));
  const more = items.length > TITLES_SHOWN ? `; and ${items.length - TITLES_SHOWN} more` : '';
  const head = baseline
    ? `Baseline: ${items.length} result${items.length === 1 ? '' : 's'} already published`
    : `${items.length} new result${items.length === 1 ? '' : 's'}`;
  return `${head}: ${titles.join('; ')}${more}`;
}

/** From each page (or, unread, its snippet) the sentence that best covers the topic and keywords. */
export async function extractiveSummary(
  terms: MonitorTerms,
  items: NewResult[],
  pages: ReadPage[],
  baseline: boolean,
): Promise<string> {
  const query = [terms.topic, ...terms.keywords].join(' ');
  const lines: string[] = [];
  for (const item of items) {
    const page = pages.find((candidate) => candidate.url === item.url);
    const text = page?.text.trim() ? page.text : item.snippet;
    // No embedding model here: the monitor area does not use one, so the lexical fit scores the sentences.
    const best = await summariseExtractively(query, text, null, { sentences: 1 });
    if (best) lines.push(`${clip(item.title || item.url, 120)}: ${clip(best.replace(/\s+/g, ' '), SENTENCE_CHARS)}`);
  }
  const head = titlesLine(items, baseline);
  return lines.length > 0 ? `${head}\n${lines.map((line) => `- ${line}`).join('\n')}` : head;
}

/**
 * The model's summary of what is new, cited [n] → the new results and checked like every written
 * answer (citations to no result removed); throws when nothing usable is left or the call fails (the
 * caller falls back to extractive).
 */
export async function modelSummary(
  client: LlmClient,
  terms: MonitorTerms,
  items: NewResult[],
  pages: ReadPage[],
  signal: AbortSignal,
): Promise<Analysis> {
  const sources: PromptSource[] = await Promise.all(
    items.map(async (item, i) => {
      const page = pages.find((candidate) => candidate.url === item.url);
      const text = clip((page?.text.trim() ? page.text : item.snippet).replace(/\s+/g, ' '), PAGE_CHARS_FOR_MODEL);
      const passages = (await cutPassages(text, { by: 'sentence' })).map((sentence) => sentence.text);
      return { n: i + 1, title: item.title || item.url, url: item.url, passages };
    }),
  );
  const keywords = terms.keywords.length > 0 ? ` (keywords: ${terms.keywords.join(', ')})` : '';
  const written = await writeAnswer(
    client,
    `What do these new pages report about ${terms.topic}${keywords}?`,
    sources,
    {
      length: 'short',
      instruction: 'Write 2 to 5 plain sentences on what they report that bears on the topic and keywords.',
      signal,
    },
  );
  if (!written || written.text === NO_ANSWER) throw new Error('the model gave no cited summary of the new pages');
  return { analysis: `${titlesLine(items, false)}\n${written.text}`, method: 'llm', model: written.model };
}
