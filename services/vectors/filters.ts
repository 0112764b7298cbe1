/**
 * SQL predicates for LanceDB (DataFusion dialect). Every value is either a
 * number we computed or a string literal through sqlString(), so nothing a
 * caller passes can change a predicate's structure.
 */
import { AppError } from '../../core/errors.js';
import { normaliseDomain, parseIsoDate } from './schema.js';
import type { PageIndexQuery, PurgeRequest } from './types.js';

/** A SQL string literal: quotes doubled (DataFusion treats backslashes literally). */
export function sqlString(value: string): string {
  // NUL can't be stored in a Utf8 literal meaningfully and has no business in a URL or domain.
  if (value.includes('\0')) throw new AppError('INVALID_INPUT', 'filter values may not contain NUL');
  return `'${value.replaceAll("'", "''")}'`;
}

/** The domain itself or any subdomain: "example.com" matches "news.example.com", not "badexample.com". */
export function domainPredicate(domain: string): string {
  const host = normaliseDomain(domain);
  if (!host) throw new AppError('INVALID_INPUT', `empty domain in filter: ${JSON.stringify(domain)}`);
  return `(domain = ${sqlString(host)} OR ends_with(domain, ${sqlString(`.${host}`)}))`;
}

function dateBound(value: string, field: string, endOfDay: boolean): number {
  const ms = parseIsoDate(value, endOfDay);
  if (ms === null) throw new AppError('INVALID_INPUT', `${field} is not an ISO date: ${JSON.stringify(value)}`);
  return ms;
}

/** The WHERE clause for a search, or undefined when there is no filter. */
export function searchFilter(query: PageIndexQuery): string | undefined {
  const parts: string[] = [];
  if (query.includeDomains?.length) parts.push(`(${query.includeDomains.map(domainPredicate).join(' OR ')})`);
  if (query.excludeDomains?.length) parts.push(`NOT (${query.excludeDomains.map(domainPredicate).join(' OR ')})`);
  // A comparison with NULL is never true, so undated pages drop out once a date bound is set.
  if (query.publishedAfter) parts.push(`published_at >= ${dateBound(query.publishedAfter, 'publishedAfter', false)}`);
  if (query.publishedBefore) parts.push(`published_at <= ${dateBound(query.publishedBefore, 'publishedBefore', true)}`);
  return parts.length ? parts.join(' AND ') : undefined;
}

/** The WHERE clause for a purge: every given criterion must hold. */
export function purgeFilter(request: PurgeRequest): string {
  if (request.all) return 'true';
  const parts: string[] = [];
  if (request.url !== undefined) parts.push(`url = ${sqlString(request.url)}`);
  if (request.domain !== undefined) parts.push(domainPredicate(request.domain));
  if (request.fetchedBefore !== undefined) {
    const ms = request.fetchedBefore.getTime();
    if (Number.isNaN(ms)) throw new AppError('INVALID_INPUT', 'fetchedBefore is not a valid date');
    parts.push(`fetched_at < ${ms}`);
  }
  // An empty request is far more likely a bug than a wish to wipe the index; `all` says that.
  if (!parts.length) throw new AppError('INVALID_INPUT', 'purge needs url, domain, fetchedBefore or all');
  return parts.join(' AND ');
}

export function urlListPredicate(urls: string[]): string {
  return `url IN (${urls.map(sqlString).join(', ')})`;
}
