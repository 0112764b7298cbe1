/**
 * Host names as ratings are keyed: compared as services/web-search/hosts.ts
 * compares hosts (lower case, no "www." or "www2."), falling back
 * label by label to the registrable domain of the public suffix list (so
 * news.bbc.co.uk finds bbc.co.uk, and nobody's blog on a shared host finds
 * the host).
 */
import { parse } from 'tldts';
import { bareHost } from '../../../services/web-search/hosts.js';

export interface DomainParts {
  /** The host as given, as hosts are compared (bareHost). */
  host: string;
  /**
   * The registrable domain (bbc.co.uk); for a user site on a shared host (the list's private
   * section: nobody.blogspot.com) the user's own domain, so it never inherits the host's rating.
   * Null for IPs and bare suffixes.
   */
  registrable: string | null;
  /** The public suffix (co.uk, or blogspot.com from the list's private section). */
  suffix: string | null;
  /** True when the host sits under a suffix from the list's private section (user sites on a shared host). */
  userHosted: boolean;
  isIp: boolean;
}

export function domainParts(hostOrUrl: string): DomainParts {
  const icann = parse(hostOrUrl);
  const withPrivate = parse(hostOrUrl, { allowPrivateDomains: true });
  const host = bareHost(icann.hostname ?? hostOrUrl);
  const userHosted =
    withPrivate.isPrivate === true && withPrivate.domain !== null && withPrivate.domain !== icann.domain;
  return {
    host,
    registrable: icann.isIp ? null : userHosted ? withPrivate.domain : (icann.domain ?? null),
    suffix: withPrivate.publicSuffix ?? icann.publicSuffix ?? null,
    userHosted,
    isIp: icann.isIp === true,
  };
}

/**
 * The names to look a host up under, most specific first: the host, then each parent down to the registrable domain.
 */
export function lookupChain(parts: DomainParts): string[] {
  if (parts.isIp || !parts.registrable) return [parts.host];
  const chain: string[] = [];
  let name = parts.host;
  while (name.length >= parts.registrable.length) {
    chain.push(name);
    if (name === parts.registrable) break;
    const dot = name.indexOf('.');
    if (dot === -1) break;
    name = name.slice(dot + 1);
  }
  if (!chain.includes(parts.registrable)) chain.push(parts.registrable);
  return chain;
}
