/**
 * What the host name alone says about a source: category from the public
 * suffix (government and academic namespaces), user sites on shared hosts,
 * and a short list of well-known satire sites; and, for domains no rating
 * set covers, a score from the same rules. Rule scores are anchored on the
 * bundled ratings (docs/verify.md): government 0.86 and academic 0.75 are the
 * median pc1 of the rated .gov (24) and .edu (23) domains; 0.38, the lower
 * quartile of all rated domains, for user sites; 0.5, weighing neither way,
 * for everything else.
 */
import type { DomainParts } from './domain.js';
import type { SourceCategory } from './labels.js';

/** Sites that publish satire, named as such in their own about pages; they are never evidence. */
export const SATIRE_DOMAINS = new Set([
  'theonion.com',
  'babylonbee.com',
  'clickhole.com',
  'thebeaverton.com',
  'newsthump.com',
  'thedailymash.co.uk',
  'waterfordwhispersnews.com',
  'der-postillon.com',
  'legorafi.fr',
  'thepanamatimes.com',
]);

const GOVERNMENT_SUFFIX = /^(gov|mil|int)$|^(gov|mil|gouv|gob|go|govt|gv|admin)\.[a-z]{2}$/;
const GOVERNMENT_DOMAINS = new Set(['gc.ca', 'canada.ca', 'europa.eu', 'gov.uk', 'service.gov.uk']);
const ACADEMIC_SUFFIX = /^edu$|^(edu|ac)\.[a-z]{2}$/;
const COMMERCIAL_SUFFIX = /^(biz|shop|store|sale|shopping|deals|market)$/;

export const RULE_SCORES: Record<SourceCategory, number> = {
  government: 0.86,
  academic: 0.75,
  news: 0.5,
  commercial: 0.45,
  unknown: 0.5,
  personal: 0.38,
  satire: 0.1,
};

export interface CategoryRule {
  category: SourceCategory;
  reason: string;
}

/** The category the host name implies, or null when it implies none. */
export function categoryFromHost(parts: DomainParts): CategoryRule | null {
  const registrable = parts.registrable ?? parts.host;
  if (SATIRE_DOMAINS.has(registrable)) return { category: 'satire', reason: `${registrable} publishes satire` };
  if (parts.userHosted)
    return {
      category: 'personal',
      reason: `a user site on the shared host ${parts.suffix} (public suffix list, private section)`,
    };
  const suffix = parts.suffix ?? '';
  if (GOVERNMENT_SUFFIX.test(suffix) || GOVERNMENT_DOMAINS.has(registrable)) {
    return {
      category: 'government',
      reason: `the .${suffix || registrable} namespace is reserved for governments and intergovernmental bodies`,
    };
  }
  if (ACADEMIC_SUFFIX.test(suffix))
    return { category: 'academic', reason: `the .${suffix} namespace is reserved for academic institutions` };
  if (COMMERCIAL_SUFFIX.test(suffix))
    return { category: 'commercial', reason: `the .${suffix} namespace is for commerce` };
  return null;
}
