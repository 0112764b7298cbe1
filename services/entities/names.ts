/**
 * Name normalisation for resolution: the keys under which an entity's names
 * are indexed, so "Microsoft Corp.", "Microsoft" and "MICROSOFT" meet.
 */
import type { EntityType } from './types.js';

const DESIGNATORS = new Set([
  'inc',
  'incorporated',
  'corp',
  'corporation',
  'co',
  'company',
  'ltd',
  'limited',
  'llc',
  'llp',
  'plc',
  'gmbh',
  'ag',
  'sa',
  'nv',
  'bv',
  'pty',
  'lp',
  // "Amazon.com", "Salesforce.com, Inc": the domain is not part of the name.
  'com',
]);
const CONNECTORS = new Set(['of', 'and', 'the', 'for', 'de', 'du', 'la', 'le', '&', 'und', 'y']);
const TITLES =
  /^(?:mr|mrs|ms|dr|prof|sir|dame|gov|sen|rep|gen|col|capt|lt|sgt|rev|president|prime minister|minister|chancellor|senator|governor|mayor|judge|king|queen|prince|princess|pope|ceo|chairman|chairwoman)\.?\s+/i;

/** Trims what is not part of a name: a leading "the", a possessive, quotes, punctuation at the ends. */
export function cleanName(surface: string): string {
  const name = surface
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[“”"'‘’(\[]+|[“”"'‘’)\],;:!?]+$/gu, '')
    .replace(/['’]s$/u, '')
    .replace(/^the\s+/i, '')
    .trim();
  // Keep the period of an abbreviation ("Corp.", "Co.", "Jr.", "U.S."); drop a sentence's.
  return /(?:\b\p{Lu}\p{Ll}{0,3}|\p{Lu})\.$/u.test(name) ? name : name.replace(/\.+$/, '');
}

function words(name: string): string[] {
  return name
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}&]+/gu, ' ')
    .trim()
    .split(' ')
    .filter(Boolean);
}

/** The main key of a name: lower case, no accents or punctuation, no company designator, no personal title. */
export function nameKey(type: EntityType, surface: string): string {
  let name = cleanName(surface);
  if (type === 'person') name = name.replace(TITLES, '');
  const parts = words(name);
  if (type === 'organization') while (parts.length > 1 && DESIGNATORS.has(parts[parts.length - 1]!)) parts.pop();
  return parts.join(' ');
}

/** True when the surface form ends in a company designator ("Corp.", "Inc"). */
export function hasDesignator(surface: string): boolean {
  const parts = words(cleanName(surface));
  return parts.length > 1 && DESIGNATORS.has(parts[parts.length - 1]!);
}

/** Initials of the significant words ("Pacific Gas & Electric" → "pge"); null for one-word names. */
export function initials(key: string): string | null {
  const parts = key.split(' ').filter((w) => !CONNECTORS.has(w));
  return parts.length >= 2 ? parts.map((w) => w[0]).join('') : null;
}

/** Letters of an acronym-looking surface ("PG&E" → "pge", "U.N." → "un"); null otherwise. */
export function acronymLetters(surface: string): string | null {
  const name = cleanName(surface);
  if (!/^(?:[\p{Lu}]\.?){2,}$|^[\p{Lu}][\p{Lu}&]{1,7}$/u.test(name.replace(/&/g, '&'))) return null;
  return name.replace(/[^\p{L}]/gu, '').toLowerCase();
}

/** Words of a name for the token index (search by part of a name). */
export function nameTokens(surface: string): string[] {
  return [...new Set(words(surface).filter((w) => w.length >= 2 && !CONNECTORS.has(w)))];
}

/** Index keys an entity's names are registered under, typed so a person and a company never meet. */
export function aliasKeys(type: EntityType, names: readonly string[]): string[] {
  const keys = new Set<string>();
  for (const name of names) {
    const key = nameKey(type, name);
    if (!key) continue;
    keys.add(`${type}:${key}`);
    const parts = key.split(' ');
    if (type === 'person' && parts.length >= 2) keys.add(`person~surname:${parts[parts.length - 1]}`);
    if (type === 'organization' && parts.length >= 2) {
      const acronym = initials(key);
      if (acronym && acronym.length >= 2) keys.add(`organization~acronym:${acronym}`);
      for (const word of [parts[0]!, parts[parts.length - 1]!])
        if (word.length >= 3 && !CONNECTORS.has(word)) keys.add(`organization~word:${word}`);
    }
  }
  return [...keys];
}
