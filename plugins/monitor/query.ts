/**
 * What a monitor searches for and which results count: the query (topic,
 * keywords, and the sources as site: filters), the sources as a filter on
 * result hosts (engines that ignore site: still cannot add other sites),
 * the keyword test, and the key a URL is remembered under.
 */
import { createHash } from 'node:crypto';
import { lexicalRelevance } from '../../services/ranking/relevance.js';
import { tokenize } from '../../services/ranking/tokens.js';
import { bareHost } from '../../services/web-search/hosts.js';
import { onAnyDomain } from '../../services/web-search/domain-filter.js';
import { normalizeUrl } from '../../services/web-search/url-normalize.js';

const MAX_QUERY_CHARS = 2000;
const DOMAIN = /^(?=.{1,253}$)([a-z0-9_-]+\.)*[a-z0-9_-]+$/;
/** A result that shares this much with the topic is kept even without a keyword. */
const TOPIC_RELEVANCE = 0.5;

export interface MonitorTerms {
  topic: string;
  keywords: string[];
  sources: string[] | null;
}

/** "https://www.Example.com/news" → "example.com"; null when it is not a domain. */
export function normalizeSource(value: string): string | null {
  let text = value.trim().toLowerCase();
  if (text === '') return null;
  if (/^[a-z][a-z0-9+.-]*:\/\//.test(text)) {
    try {
      text = new URL(text).hostname;
    } catch {
      return null;
    }
  } else {
    text = text.replace(/^\*\./, '').split('/')[0]!;
  }
  text = bareHost(text);
  return DOMAIN.test(text) ? text : null;
}

/** The search query of one check: topic and keywords, then the sources as site: filters when the whole fits. */
export function monitorQuery(terms: MonitorTerms): string {
  const topicWords = new Set(tokenize(terms.topic));
  // Keywords the topic already holds add nothing to the query.
  const extra = terms.keywords.filter((keyword) => !tokenize(keyword).every((token) => topicWords.has(token)));
  const base = [terms.topic, ...extra].join(' ').slice(0, MAX_QUERY_CHARS);
  if (!terms.sources?.length) return base;
  const sites = terms.sources.map((domain) => `site:${domain}`);
  const filter = sites.length === 1 ? sites[0]! : `(${sites.join(' OR ')})`;
  const full = `${base} ${filter}`;
  return full.length <= MAX_QUERY_CHARS ? full : base;
}

/** Whether the URL's host is one of the sources or under one. */
export function onSources(url: string, sources: string[] | null): boolean {
  return !sources?.length || onAnyDomain(url, sources);
}

/** A result counts when its title or snippet holds every word of one keyword, or covers the topic. */
export function isRelevant(terms: MonitorTerms, result: { title: string; snippet: string }): boolean {
  const words = new Set(tokenize(`${result.title}\n${result.snippet}`));
  if (terms.keywords.some((keyword) => tokenize(keyword).every((token) => words.has(token)))) return true;
  return lexicalRelevance(terms.topic, { title: result.title, snippet: result.snippet }) >= TOPIC_RELEVANCE;
}

/**
 * The key a URL is remembered under: 16 hex digits of SHA-256 over its normalised form (http/https, www., tracking
 * parameters alike).
 */
export function urlKey(url: string): string {
  return createHash('sha256').update(normalizeUrl(url)).digest('hex').slice(0, 16);
}
