/**
 * robots.txt as the extraction worker reads it for the outbound client's
 * RobotsCache (core/http/robots-cache.ts): a fetched file is reduced to the
 * rules our agent obeys, so the event loop never parses the whole of it, and
 * rule sets too large to match there are matched here. The group choice is
 * robots-parser's (the rules of every group naming our product token, else
 * those of `*`); matching stays the library's.
 */
import { robotsParser, type ReducedRobots, type Robots } from '../../core/http/robots-cache.js';

/** Lines that give a group rules, or (crawl-delay) select it without adding any, as robots-parser counts them. */
const RULE_KEYS: Record<string, string | null> = { allow: 'Allow', disallow: 'Disallow', 'crawl-delay': null };

/** A robots.txt as discovery reads it: our rules, and the sitemaps it lists (for every agent). */
export type RobotsFile = ReducedRobots & { sitemaps: string[] };

/**
 * The rules of contents that agent obeys, as a robots.txt of one `User-agent: *` group, and their count,
 * with its Sitemap lines; every line is read the way robots-parser's parseRobots reads it.
 */
export function reduceRobots(contents: string, agent: string): RobotsFile {
  const ours = productToken(agent);
  const selected = new Map<string, string[]>();
  const sitemaps: string[] = [];
  let groupAgents: string[] = [];
  let afterUserAgent = false;
  for (const rawLine of contents.split(/\r\n|\r|\n/)) {
    const hash = rawLine.indexOf('#');
    const line = hash < 0 ? rawLine : rawLine.slice(0, hash);
    const colon = line.indexOf(':');
    const key = colon < 0 ? '' : line.slice(0, colon).trim().toLowerCase();
    // Lines without a key are skipped entirely: they neither end a run of User-agent lines nor belong to a group.
    if (!key) continue;
    const value = line.slice(colon + 1).trim();
    if (key === 'user-agent') {
      if (!afterUserAgent) groupAgents = [];
      if (value) groupAgents.push(productToken(value));
      afterUserAgent = true;
      continue;
    }
    afterUserAgent = false;
    if (key === 'sitemap' && value) sitemaps.push(value);
    const directive = RULE_KEYS[key];
    if (directive === undefined) continue;
    for (const token of new Set([ours, '*'])) {
      if (!groupAgents.includes(token)) continue;
      const rules = selected.get(token) ?? [];
      selected.set(token, rules);
      // An empty value still selects the group (with no rule), as it does in robots-parser.
      if (directive && value) rules.push(`${directive}: ${value}`);
    }
  }
  const rules = selected.get(ours) ?? selected.get('*') ?? [];
  return { text: ['User-agent: *', ...rules].join('\n'), count: rules.length, sitemaps };
}

/** A User-agent value as robots-parser compares it: lower case, without a "/version". */
function productToken(userAgent: string): string {
  const lower = userAgent.toLowerCase();
  const slash = lower.indexOf('/');
  return (slash < 0 ? lower : lower.slice(0, slash)).trim();
}

/** Rule sets this thread has parsed, by the id the pool gave them: a crawl checks one site's many URLs in a row. */
const parsedRules = new Map<string, Robots>();
const MAX_PARSED_RULE_SETS = 4;
/** One origin for every rule set: robots-parser answers only for URLs of the origin its file came from. */
const RULES_ORIGIN = 'http://robots.invalid';

/**
 * Whether rule set id (reduced rules: reduceRobots' text) lets us fetch each of urls; null when this thread does
 * not hold the set and was not sent its text, which the pool then sends: a large set crosses to each thread once.
 */
export function robotsAllowAll(id: string, rules: string | undefined, urls: string[]): boolean[] | null {
  let robots = parsedRules.get(id);
  if (!robots && rules === undefined) return null;
  robots ??= robotsParser(`${RULES_ORIGIN}/robots.txt`, rules ?? '');
  parsedRules.delete(id);
  parsedRules.set(id, robots);
  if (parsedRules.size > MAX_PARSED_RULE_SETS) parsedRules.delete(parsedRules.keys().next().value as string);
  return urls.map((url) => {
    const { pathname, search } = new URL(url);
    return robots.isAllowed(`${RULES_ORIGIN}${pathname}${search}`) !== false;
  });
}
