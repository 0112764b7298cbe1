/**
 * The link decisions of a crawl or map (docs/agent.md, "Crawl and map"):
 * exclude_domains, then select_domains (a host it matches is in scope), then
 * exclude_paths and select_paths; a link in scope is followed, one to another
 * site is kept without following when allow_external, else dropped. The
 * user's regular expressions run in the extraction worker pool under a time
 * limit (services/extract/regex-test.ts), never on this thread.
 */
import type { LinkDecision } from '../../services/discover/site-crawl.js';
import type { TestPattern } from '../../services/extract/regex-test.js';
import { sameSite } from '../../services/web-search/hosts.js';
import type { AgentMapInput } from './crawl-schemas.js';

export type RegexTester = (texts: string[], patterns: TestPattern[], signal: AbortSignal) => Promise<boolean[][]>;

type FilterInput = Pick<
  AgentMapInput,
  'select_paths' | 'exclude_paths' | 'select_domains' | 'exclude_domains' | 'allow_external'
>;

export function linkDecider(input: FilterInput, base: URL, test: RegexTester) {
  const groups = {
    selectPaths: input.select_paths ?? [],
    excludePaths: input.exclude_paths ?? [],
    selectDomains: input.select_domains ?? [],
    excludeDomains: input.exclude_domains ?? [],
  };
  const patterns: TestPattern[] = [
    ...groups.selectPaths,
    ...groups.excludePaths,
    ...groups.selectDomains,
    ...groups.excludeDomains,
  ].map((source) => ({ source, flags: '' }));

  return async (urls: URL[], signal: AbortSignal): Promise<LinkDecision[]> => {
    const paths = urls.map((url) => url.pathname + url.search);
    const hosts = urls.map((url) => url.hostname);
    // One worker call per page: every pattern over the paths, then over the host names.
    const matches = patterns.length > 0 ? await test([...paths, ...hosts], patterns, signal) : [];
    let row = 0;
    const rowsOf = (count: number) => matches.slice(row, (row += count));
    const selectPaths = rowsOf(groups.selectPaths.length);
    const excludePaths = rowsOf(groups.excludePaths.length);
    const selectDomains = rowsOf(groups.selectDomains.length);
    const excludeDomains = rowsOf(groups.excludeDomains.length);
    const any = (rows: boolean[][], index: number) => rows.some((r) => r[index] === true);

    return urls.map((url, i) => {
      const host = urls.length + i;
      if (any(excludeDomains, host)) return 'drop';
      if (groups.selectDomains.length > 0 && !any(selectDomains, host)) return 'drop';
      if (any(excludePaths, i)) return 'drop';
      if (groups.selectPaths.length > 0 && !any(selectPaths, i)) return 'drop';
      const inScope = groups.selectDomains.length > 0 || sameSite(url, base);
      if (inScope) return 'follow';
      return input.allow_external ? 'leaf' : 'drop';
    });
  };
}
