/**
 * The page title shown to users: og:title, JSON-LD headline, <title> or the
 * first <h1>, without a trailing (or leading) site name such as " | Example News".
 */

import { bareHost } from '../web-search/hosts.js';

const SEPARATORS = /\s+[|\-–—·•:»/]\s+/g;

function squash(value: string): string {
  // A site name written as a host ("www.example.com") compares as the host does.
  return bareHost(value).replace(/[^\p{L}\p{N}]/gu, '');
}

function siteNames(siteName: string | null, pageUrl: URL | null): string[] {
  const names: string[] = [];
  if (siteName) names.push(squash(siteName));
  if (pageUrl) {
    const host = bareHost(pageUrl.hostname);
    const labels = host.split('.');
    // The registrable name ("wikipedia" of en.wikipedia.org) is what titles usually carry.
    names.push(squash(host), squash(labels.slice(0, -1).join('.')), squash(labels.at(-2) ?? ''));
  }
  return names.filter((name) => name.length >= 3);
}

function isSiteName(segment: string, names: string[]): boolean {
  const squashed = squash(segment);
  return squashed.length > 0 && names.some((name) => squashed === name || squashed.includes(name));
}

export function cleanTitle(title: string, siteName: string | null, pageUrl: URL | null): string {
  const trimmed = title.replace(/\s+/g, ' ').trim();
  const separators = [...trimmed.matchAll(SEPARATORS)];
  const first = separators[0];
  const last = separators.at(-1);
  if (!first || !last) return trimmed;
  const names = siteNames(siteName, pageUrl);
  const withoutTail = trimmed.slice(0, last.index).trim();
  if (withoutTail && isSiteName(trimmed.slice(last.index + last[0].length), names)) return withoutTail;
  const withoutHead = trimmed.slice(first.index + first[0].length).trim();
  if (withoutHead && isSiteName(trimmed.slice(0, first.index), names)) return withoutHead;
  return trimmed;
}

export function pickTitle(
  doc: Document,
  metadataTitle: string | null,
  siteName: string | null,
  pageUrl: URL | null,
): string {
  const raw = metadataTitle ?? doc.querySelector('h1')?.textContent ?? '';
  return cleanTitle(raw, siteName, pageUrl);
}
