/**
 * Firecrawl's scrape options mapped onto the one reader (services/scrape):
 * formats become what the reader keeps (markup, a screenshot means
 * rendering), `maxAge`/`storeInCache` become the page cache's mode and
 * freshness bound; then each page read becomes a Document, with `summary`
 * and `json` written by the language model (services/llm) where asked.
 */
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type { CallContext } from '../../core/capability.js';
import { AppError } from '../../core/errors.js';
import type { FirecrawlServices } from './uses.js';
import { extractiveSummary, writtenSummaries } from '../../services/answers/summary.js';
import { modelFor } from '../../services/llm/model-choice.js';
import type { SelectedContent } from '../../services/extract/selected-content.js';
import type { CacheMode } from '../../services/scrape/page-cache.js';
import type { ScrapedPage, ScrapeOptions } from '../../services/scrape/scraper.js';
import { isDocumentPage, pageError, toDocument } from './document.js';
import { readerActions } from './actions.js';
import { trackChange, type JsonQuestion } from './change-tracking.js';
import { creditLedgerOf } from './credit-ledger.js';
import { compileSchema, extractJson } from './json-extraction.js';
import { formatPlan, type FormatPlan, type LlmFormat } from './formats.js';
import type { FirecrawlDocument, ScrapeOptionsInput } from './scrape-schema.js';

/** How long a read page stays in the page cache for later `maxAge` reads (Firecrawl's v2 default freshness). */
const STORED_SECONDS = 2 * 24 * 3600;

export const NO_MODEL_MESSAGE =
  'needs a language model, and none is configured on this installation: set llm.quality or llm.fast in the ' +
  'config, or QUARRY_LLM_BASE_URL and QUARRY_LLM_MODEL (docs/llm.md)';

type ContentOptions = Pick<ScrapeOptionsInput, 'onlyMainContent' | 'includeTags' | 'excludeTags'>;

export type PageOutcome = { url: string; document: FirecrawlDocument } | { url: string; error: AppError };

export function cacheModeOf(options: Pick<ScrapeOptionsInput, 'maxAge' | 'storeInCache'>): CacheMode {
  const reads = options.maxAge > 0;
  if (reads) return options.storeInCache ? 'enabled' : 'read_only';
  return options.storeInCache ? 'write_only' : 'disabled';
}

export function readerOptions(options: ScrapeOptionsInput, plan: FormatPlan, signal: AbortSignal): ScrapeOptions {
  const actions = readerActions(options.actions);
  // A change is found only against a fresh read: a cached page would always be "same".
  const fresh = plan.changeTracking ? { ...options, maxAge: 0 } : options;
  return {
    // Screenshots, actions, a phone viewport and a wait after load exist only in a browser.
    javascript: plan.screenshot !== null || actions !== undefined || options.mobile || options.waitFor > 0,
    ...(actions ? { actions } : {}),
    ...(options.mobile ? { mobile: true } : {}),
    ...(options.headers && Object.keys(options.headers).length > 0 ? { headers: options.headers } : {}),
    ...(options.waitFor > 0 ? { waitFor: options.waitFor } : {}),
    timeoutMs: options.timeout,
    signal,
    // Only the parts the formats need (markdown is what every other format is made from; media holds the
    // metadata's favicon): lists nobody asked for cost a crawl CPU on every page. The page cache keys a read by
    // these options, so a request for other formats reads the page again rather than meeting a read without them.
    extract: { includeImages: plan.images, includeLinks: plan.links, markdown: true, media: true },
    // A page's links are all of its links (Firecrawl's), parsed from its markup in the worker pool.
    includeHtml: plan.html || plan.rawHtml || plan.links || selectsContent(options),
    screenshot: plan.screenshot !== null,
    cache: { mode: cacheModeOf(fresh), ttlSeconds: STORED_SECONDS, maxAgeMs: fresh.maxAge },
  };
}

/** Whether the markdown is not the reader's main content but what onlyMainContent/includeTags/excludeTags select. */
function selectsContent(options: ContentOptions): boolean {
  return !options.onlyMainContent || Boolean(options.includeTags?.length) || Boolean(options.excludeTags?.length);
}

/**
 * Refuses, before any page is read, what cannot be answered: json (or changeTracking's json mode) without a model or
 * with a schema that is not one (compiled in the worker pool), actions the reader refuses.
 */
export async function checkAnswerable(
  services: FirecrawlServices,
  options: ScrapeOptionsInput,
  plan: FormatPlan,
  signal?: AbortSignal,
): Promise<void> {
  services.scraper.checkRequest(readerOptions(options, plan, new AbortController().signal));
  if (plan.json) requireModel(services, 'formats: json');
  if (plan.changeTracking?.json) requireModel(services, "formats: changeTracking's json mode");
  if (plan.json?.schema) await compileSchema(services.parsing, plan.json.schema, 'formats: json schema', signal);
  const tracked = plan.changeTracking?.json?.schema;
  if (tracked) await compileSchema(services.parsing, tracked, 'formats: changeTracking schema', signal);
}

/** The model for structured extraction, or the refusal every Firecrawl route gives without one (a 400 there). */
export function requireModel(services: FirecrawlServices, what: string) {
  const model = modelFor(services.llm, 'page-extraction');
  if (!model) throw new AppError('UNAVAILABLE', `${what} ${NO_MODEL_MESSAGE}`);
  return model;
}

/** Reads every URL (the reader's lanes, one deadline per page) and answers each as a Document or the error it met. */
export async function readDocuments(
  services: FirecrawlServices,
  urls: string[],
  options: ScrapeOptionsInput,
  ctx: CallContext,
  onPage?: (outcome: PageOutcome) => void,
): Promise<PageOutcome[]> {
  const plan = formatPlan(options);
  await checkAnswerable(services, options, plan, ctx.signal);
  const reader = readerOptions(options, plan, ctx.signal);
  const pages = await services.scraper.scrapeMany(urls, {
    ...reader,
    timeoutMs: options.timeout * Math.max(1, Math.ceil(urls.length / 4)),
  });
  const outcomes: PageOutcome[] = [];
  for (const page of pages) {
    const outcome = await documentOf(services, page, plan, [], ctx, options);
    outcomes.push(outcome);
    onPage?.(outcome);
  }
  return outcomes;
}

/** One read page as a Document (LLM formats included) or its error. */
export async function documentOf(
  services: FirecrawlServices,
  page: ScrapedPage,
  plan: FormatPlan,
  warnings: string[],
  ctx: CallContext,
  options: ContentOptions = { onlyMainContent: true },
): Promise<PageOutcome> {
  if (!isDocumentPage(page)) return { url: page.url, error: pageError(page) };
  const links =
    plan.links && page.html ? await services.parsing.links(page.html, page.finalUrl, ctx.signal) : undefined;
  const selected = await selectedContentOf(services, page, plan, options, ctx);
  const document = toDocument(
    selected ? { ...page, markdown: selected.markdown } : page,
    plan,
    randomUUID(),
    warnings,
    links,
  );
  if (plan.html) document.html = selected?.html ?? '';
  if (plan.summary) document.summary = await summaryOf(services, page, ctx);
  if (plan.json) document.json = await jsonOf(services, page, plan.json, ctx);
  if (plan.changeTracking) {
    const { tracking, warnings: notes } = await trackChange(
      { records: services.stores.records, parsing: services.parsing, signal: ctx.signal },
      {
        url: page.url,
        markdown: selected?.markdown ?? page.markdown,
        gone: page.httpStatus === 404 || page.httpStatus === 410,
        modes: plan.changeTracking.modes,
        tag: plan.changeTracking.tag,
        caller: ctx.caller,
        ...(plan.changeTracking.json ? { json: jsonQuestion(services, page, plan, document, ctx) } : {}),
      },
    );
    document.changeTracking = tracking;
    if (notes.length > 0) document.warning = [document.warning, ...notes].filter(Boolean).join('; ');
  }
  // One credit per Document, as Firecrawl counts them: every route's pages come through here.
  creditLedgerOf(services).add(ctx.caller, 1);
  return { url: page.url, document };
}

/**
 * The page's content as the options select it (html format: the main content's markup), parsed in the worker
 * pool; undefined when the reader's main-content markdown is what was asked for.
 */
async function selectedContentOf(
  services: FirecrawlServices,
  page: ScrapedPage,
  plan: FormatPlan,
  options: ContentOptions,
  ctx: CallContext,
): Promise<SelectedContent | undefined> {
  const selects = selectsContent(options);
  if (!page.html || !(plan.html || selects)) return undefined;
  const selected = await services.parsing.selectedContent(
    page.html,
    page.finalUrl,
    {
      onlyMainContent: options.onlyMainContent,
      ...(options.includeTags?.length ? { includeTags: options.includeTags } : {}),
      ...(options.excludeTags?.length ? { excludeTags: options.excludeTags } : {}),
    },
    ctx.signal,
  );
  return selects ? selected : { html: selected.html, markdown: page.markdown };
}

async function summaryOf(services: FirecrawlServices, page: ScrapedPage, ctx: CallContext): Promise<string> {
  const model = modelFor(services.llm, 'page-summary');
  const about = page.title || page.url;
  const [written] = model
    ? await writtenSummaries(model, about, [{ title: page.title, text: page.text }], {
        signal: ctx.signal,
        logger: ctx.logger,
      })
    : [null];
  if (written) return written;
  return page.text
    ? extractiveSummary(about, page.text, await services.semantic.embedder(), { signal: ctx.signal })
    : '';
}

async function jsonOf(
  services: FirecrawlServices,
  page: ScrapedPage,
  format: LlmFormat,
  ctx: CallContext,
  field = 'formats: json',
  markdown = page.markdown,
): Promise<unknown> {
  return extractJson(requireModel(services, field), services.parsing, {
    field,
    ...format,
    content: `Page (${page.finalUrl}):\n${markdown}`,
    signal: ctx.signal,
  });
}

/**
 * changeTracking's json mode: its question, answered by the model for this read's markdown or the previous one's;
 * the json format's answer is reused when it asked the same of the same markdown.
 */
function jsonQuestion(
  services: FirecrawlServices,
  page: ScrapedPage,
  plan: FormatPlan,
  document: FirecrawlDocument,
  ctx: CallContext,
): JsonQuestion {
  const format = plan.changeTracking!.json!;
  const sameAsJsonFormat = plan.json !== null && isDeepStrictEqual(plan.json, format);
  return {
    ...format,
    extract: (markdown) =>
      sameAsJsonFormat && markdown === page.markdown && document.json !== undefined
        ? Promise.resolve(document.json)
        : jsonOf(services, page, format, ctx, 'formats: changeTracking', markdown),
  };
}
