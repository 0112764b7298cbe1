/**
 * What a request's `formats` ask for, as one plan: v2's `{type, …}` objects and
 * v1's strings (`screenshot@fullPage`, `extract`, with options in `jsonOptions`)
 * read alike. A format Quarry does not produce is named back in the
 * Document's `warning` rather than refused (the clients offer newer ones).
 */
import type { FormatInput, ScrapeOptionsInput } from './scrape-schema.js';

export interface LlmFormat {
  schema?: Record<string, unknown>;
  prompt?: string;
  systemPrompt?: string;
}

export interface FormatPlan {
  markdown: boolean;
  html: boolean;
  rawHtml: boolean;
  links: boolean;
  images: boolean;
  screenshot: { fullPage: boolean } | null;
  summary: boolean;
  json: LlmFormat | null;
  /** `json`: json mode's question (modes include "json"), the format's own schema and prompt. */
  changeTracking: { modes: string[]; tag: string | null; json: LlmFormat | null } | null;
  /** Formats asked for that this installation does not produce. */
  unsupported: string[];
}

const PLAIN = new Set(['markdown', 'html', 'rawHtml', 'links', 'images', 'summary']);

export function formatPlan(
  options: Pick<ScrapeOptionsInput, 'formats' | 'jsonOptions' | 'extract' | 'changeTrackingOptions'>,
): FormatPlan {
  const plan: FormatPlan = {
    markdown: false,
    html: false,
    rawHtml: false,
    links: false,
    images: false,
    screenshot: null,
    summary: false,
    json: null,
    changeTracking: null,
    unsupported: [],
  };
  for (const format of options.formats) {
    const { type, ...settings } =
      typeof format === 'string' ? { type: format } : (format as Exclude<FormatInput, string>);
    if (PLAIN.has(type)) plan[type as 'markdown'] = true;
    else if (type === 'screenshot' || type === 'screenshot@fullPage')
      plan.screenshot = {
        fullPage: type === 'screenshot@fullPage' || (settings as { fullPage?: boolean }).fullPage === true,
      };
    else if (type === 'json' || type === 'extract')
      plan.json = llmFormat(settings as LlmFormat, options.jsonOptions ?? options.extract);
    else if (type === 'changeTracking') {
      const inline = settings as { modes?: string[]; tag?: string | null } & LlmFormat;
      const given = { ...options.changeTrackingOptions, ...inline };
      const modes = given.modes ?? [];
      plan.changeTracking = {
        modes,
        tag: given.tag ?? null,
        json: modes.includes('json') ? llmFormat(inline, options.changeTrackingOptions) : null,
      };
    } else plan.unsupported.push(type);
  }
  return plan;
}

function llmFormat(inline: LlmFormat, sibling: LlmFormat | undefined): LlmFormat {
  const merged = { ...sibling, ...inline };
  return {
    ...(merged.schema ? { schema: merged.schema } : {}),
    ...(merged.prompt ? { prompt: merged.prompt } : {}),
    ...(merged.systemPrompt ? { systemPrompt: merged.systemPrompt } : {}),
  };
}
