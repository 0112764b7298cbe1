/** Reddit post search (search.json listing). */
import {
  defineEngine,
  EngineAccessDeniedError,
  EngineParseError,
  EngineRateLimitedError,
  decodeEntities,
  type EngineResult,
} from '../../core/engine.js';

const LIMIT = 25;
const SITE = 'https://www.reddit.com';
const SNIPPET_LENGTH = 300;

interface Post {
  title?: string;
  permalink?: string;
  url?: string;
  selftext?: string;
  author?: string;
  subreddit?: string;
  created_utc?: number;
  score?: number;
  num_comments?: number;
  thumbnail?: string;
  over_18?: boolean;
}

interface Listing {
  kind?: string;
  data?: { children?: Array<{ kind?: string; data?: Post }> };
}

function shorten(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= SNIPPET_LENGTH ? flat : `${flat.slice(0, SNIPPET_LENGTH).replace(/\s+\S*$/, '')} …`;
}

function postToResult(post: Post): EngineResult | undefined {
  if (!post.title || !post.permalink) return undefined;
  // Thumbnails are "self", "default", "nsfw" or "" unless the post has a real preview.
  const thumbnail = post.thumbnail && /^https?:\/\//.test(post.thumbnail) ? decodeEntities(post.thumbnail) : undefined;
  const linked = post.url && /^https?:\/\//.test(post.url) ? decodeEntities(post.url) : undefined;
  const snippetText = post.selftext ? decodeEntities(post.selftext) : '';
  return {
    url: new URL(post.permalink, SITE).href,
    title: decodeEntities(post.title),
    snippet: snippetText
      ? shorten(snippetText)
      : `r/${post.subreddit ?? ''} · ${post.score ?? 0} points · ${post.num_comments ?? 0} comments`,
    publishedDate: post.created_utc ? new Date(post.created_utc * 1000).toISOString() : undefined,
    author: post.author,
    thumbnail,
    extra: {
      subreddit: post.subreddit,
      score: post.score,
      comments: post.num_comments,
      link: linked,
      nsfw: post.over_18 ?? false,
    },
  };
}

export default defineEngine({
  buildRequest(ctx) {
    const base = ctx.settings.baseUrl.replace(/\/+$/, '');
    // raw_json=1 asks for text without legacy HTML escaping.
    const params = new URLSearchParams({ q: ctx.query.query, limit: String(LIMIT), sort: 'relevance', raw_json: '1' });
    if (ctx.query.timeRange) params.set('t', ctx.query.timeRange);
    return { method: 'GET', url: `${base}/search.json?${params}` };
  },

  parseResponse(response, ctx) {
    if (response.status === 429) throw new EngineRateLimitedError();
    if (response.status === 403 || response.status === 401)
      throw new EngineAccessDeniedError(`reddit answered HTTP ${response.status}`);
    let listing: Listing;
    try {
      listing = JSON.parse(response.body) as Listing;
    } catch {
      throw new EngineParseError('reddit did not answer JSON');
    }
    if (listing.kind !== 'Listing') throw new EngineParseError('reddit did not answer a listing');
    const posts = (listing.data?.children ?? [])
      .filter((child) => child.kind === 't3')
      .map((child) => child.data ?? {});
    const allowed = ctx.query.safeSearch > 0 ? posts.filter((post) => !post.over_18) : posts;
    return { results: allowed.map(postToResult).filter((result) => result !== undefined) };
  },
});
