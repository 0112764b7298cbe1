/** Hacker News stories through the Algolia HN Search API (JSON). */
import {
  defineEngine,
  EngineParseError,
  EngineRateLimitedError,
  stripMarkup,
  type EngineResult,
} from '../../core/engine.js';

const PAGE_SIZE = 10;
const ITEM_URL = 'https://news.ycombinator.com/item?id=';

interface Hit {
  objectID?: string;
  title?: string | null;
  url?: string | null;
  author?: string;
  points?: number | null;
  num_comments?: number | null;
  created_at?: string;
  story_text?: string | null;
}

function hitToResult(hit: Hit): EngineResult | undefined {
  if (!hit.objectID || !hit.title) return undefined;
  const discussion = `${ITEM_URL}${hit.objectID}`;
  // Ask HN and similar text posts have no external link: the discussion is the result.
  const url = hit.url && /^https?:\/\//.test(hit.url) ? hit.url : discussion;
  const counts = `${hit.points ?? 0} points, ${hit.num_comments ?? 0} comments`;
  return {
    url,
    title: stripMarkup(hit.title),
    snippet: hit.story_text ? stripMarkup(hit.story_text) : counts,
    publishedDate: hit.created_at,
    author: hit.author,
    extra: { discussionUrl: discussion, points: hit.points ?? 0, comments: hit.num_comments ?? 0 },
  };
}

export default defineEngine({
  buildRequest(ctx) {
    const base = ctx.settings.baseUrl.replace(/\/+$/, '');
    const params = new URLSearchParams({
      query: ctx.query.query,
      tags: 'story',
      page: String(ctx.query.page - 1), // Algolia pages are 0-based
      hitsPerPage: String(PAGE_SIZE),
    });
    return { method: 'GET', url: `${base}/api/v1/search?${params}` };
  },

  parseResponse(response) {
    if (response.status === 429) throw new EngineRateLimitedError();
    let body: { hits?: Hit[] };
    try {
      body = JSON.parse(response.body) as typeof body;
    } catch {
      throw new EngineParseError('hacker news search did not answer JSON');
    }
    return { results: (body.hits ?? []).map(hitToResult).filter((result) => result !== undefined) };
  },
});
