/**
 * StackExchange API 2.3 /search/advanced, shared by the per-site engines
 * (stackoverflow, superuser, askubuntu). Only the site parameter differs.
 */
import {
  defineEngine,
  EngineAccessDeniedError,
  EngineCaptchaError,
  EngineParseError,
  EngineRateLimitedError,
  decodeEntities,
  stripMarkup,
  type EngineDefinition,
  type EngineResponse,
  type EngineResult,
} from '../../core/engine.js';

const PAGE_SIZE = 10;
const SNIPPET_LENGTH = 300;

interface Question {
  question_id?: number;
  title?: string;
  link?: string;
  body?: string;
  tags?: string[];
  score?: number;
  answer_count?: number;
  is_answered?: boolean;
  accepted_answer_id?: number;
  view_count?: number;
  creation_date?: number;
  owner?: { display_name?: string };
}

interface SearchAnswer {
  items?: Question[];
  error_id?: number;
  error_name?: string;
  error_message?: string;
  backoff?: number;
}

/** The API answers JSON; an HTML page means a block page such as "Human verification". */
function readAnswer(response: EngineResponse, site: string): SearchAnswer {
  const body = response.body.trimStart();
  if (body.startsWith('<')) {
    if (/human verification|captcha/i.test(body))
      throw new EngineCaptchaError(`${site} answered with a human verification page`);
    throw new EngineParseError(`${site} answered HTML instead of JSON`);
  }
  let answer: SearchAnswer;
  try {
    answer = JSON.parse(body) as SearchAnswer;
  } catch {
    throw new EngineParseError(`${site} did not answer JSON`);
  }
  // Documented errors: 502 throttle_violation, 403 access_denied, 400 key/parameter errors.
  if (answer.error_id === 502 || response.status === 429)
    throw new EngineRateLimitedError(`${site}: ${answer.error_message ?? 'throttled'}`);
  if (answer.error_id === 403 || answer.error_id === 401)
    throw new EngineAccessDeniedError(`${site}: ${answer.error_message ?? answer.error_name}`);
  if (answer.error_id !== undefined)
    throw new EngineParseError(`${site}: ${answer.error_name} ${answer.error_message ?? ''}`.trim());
  return answer;
}

function shorten(text: string): string {
  return text.length <= SNIPPET_LENGTH ? text : `${text.slice(0, SNIPPET_LENGTH).replace(/\s+\S*$/, '')} …`;
}

function questionToResult(question: Question): EngineResult | undefined {
  if (!question.link || !question.title || !/^https?:\/\//.test(question.link)) return undefined;
  const tags = question.tags ?? [];
  return {
    url: question.link,
    title: stripMarkup(decodeEntities(question.title)),
    snippet: question.body ? shorten(stripMarkup(question.body)) : tags.join(', '),
    publishedDate: question.creation_date ? new Date(question.creation_date * 1000).toISOString() : undefined,
    author: question.owner?.display_name ? decodeEntities(question.owner.display_name) : undefined,
    extra: {
      tags,
      score: question.score,
      answers: question.answer_count,
      answered: question.is_answered,
      hasAcceptedAnswer: question.accepted_answer_id !== undefined,
    },
  };
}

export function stackExchangeEngine(site: string): EngineDefinition {
  return defineEngine({
    buildRequest(ctx) {
      const base = ctx.settings.baseUrl.replace(/\/+$/, '');
      const params = new URLSearchParams({
        order: 'desc',
        sort: 'relevance',
        q: ctx.query.query,
        site,
        page: String(ctx.query.page),
        pagesize: String(PAGE_SIZE),
        filter: 'withbody', // built-in filter: adds the question body for snippets
      });
      if (ctx.settings.apiKey) params.set('key', ctx.settings.apiKey);
      return { method: 'GET', url: `${base}/2.3/search/advanced?${params}` };
    },

    parseResponse(response) {
      return {
        results: (readAnswer(response, site).items ?? [])
          .map(questionToResult)
          .filter((result) => result !== undefined),
      };
    },
  });
}
