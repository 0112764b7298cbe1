/**
 * Domain filters on result URLs: a domain covers itself and every subdomain
 * ("example.com" covers "docs.example.com", not "notexample.com"); hosts
 * and domains compare as hosts.ts says, so "www." (or "www2.") never matters. Entries arrive normalised by
 * core/field-schemas.ts.
 */
import { bareHost, hostOf } from './hosts.js';

export interface DomainFilter {
  include?: string[];
  exclude?: string[];
}

/** Whether the host is the domain or under it. */
export function onDomain(host: string, domain: string): boolean {
  const d = bareHost(domain);
  return host === d || host.endsWith(`.${d}`);
}

/** Whether the URL's host is on one of the domains; a URL without a host is on none. */
export function onAnyDomain(url: string, domains: readonly string[]): boolean {
  const host = hostOf(url);
  return host !== null && domains.some((d) => onDomain(host, d));
}

/** Include (when non-empty) must match, exclude must not; no filter passes everything. */
export function passesDomains(url: string, filter: DomainFilter | undefined): boolean {
  if (!filter) return true;
  const host = hostOf(url);
  if (host === null) return false;
  if (filter.include?.length && !filter.include.some((d) => onDomain(host, d))) return false;
  if (filter.exclude?.some((d) => onDomain(host, d))) return false;
  return true;
}
