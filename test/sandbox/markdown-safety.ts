/**
 * One checker for "is this markdown safe to hand an agent": outside fenced
 * code there is no raw HTML tag or comment, and every link, image, reference
 * definition and autolink points at http(s) on an allowed host — so a title
 * that broke out of its link (its "](…)" becoming live) shows up as a link
 * to somewhere it should not go.
 */

/** Markdown outside fenced code: where raw HTML or links would be live. */
export function outsideCode(markdown: string): string {
  return markdown.replace(/^ {0,3}(`{3,}|~{3,})[^\n]*\n[\s\S]*?^ {0,3}\1\s*$/gm, '');
}

/** Every link destination in the markdown (inline links and images, reference definitions, autolinks). */
export function linkTargets(markdown: string): string[] {
  // An escaped bracket (\]) is text, not the end of a link.
  const inline = [...markdown.matchAll(/(?<!\\)\]\(\s*<?([^)>\s]+)>?[^)]*\)/g)].map((m) => m[1]!);
  const references = [...markdown.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?\s*$/gm)].map((m) => m[1]!);
  const autolinks = [...markdownWithoutDestinations(markdown).matchAll(/<([a-z][a-z0-9+.-]*:[^>\s]*)>/gi)].map(
    (m) => m[1]!,
  );
  return [...inline, ...references, ...autolinks];
}

/** Inline link destinations written in angle brackets (](<…>)) are not autolinks or tags. */
function markdownWithoutDestinations(markdown: string): string {
  return markdown.replace(/(?<!\\)\]\(\s*<[^>\n]*>/g, '](');
}

/** What is wrong with the markdown; empty when it is safe. `allowedHosts`: host:port values links may point at. */
export function markdownProblems(markdown: string, allowedHosts: readonly string[]): string[] {
  const live = outsideCode(markdown);
  const problems: string[] = [];
  const withoutDestinations = markdownWithoutDestinations(live);
  for (const tag of withoutDestinations.match(/<\/?[a-z][a-z0-9-]*(?:\s[^>]*)?\/?>/gi) ?? [])
    if (!/^<[a-z][a-z0-9+.-]*:/i.test(tag)) problems.push(`raw HTML tag ${tag}`);
  if (/<!--|<!\[CDATA\[/.test(live)) problems.push('raw HTML comment or CDATA');
  for (const target of linkTargets(live)) {
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      problems.push(`link to a relative or malformed target ${target}`);
      continue;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      problems.push(`link to ${url.protocol} (${target.slice(0, 60)})`);
    else if (!allowedHosts.includes(url.host)) problems.push(`link to a host not allowed: ${target.slice(0, 80)}`);
  }
  return problems;
}
