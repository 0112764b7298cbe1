/**
 * robots.txt through the extraction worker's entry point (called in-process:
 * the code the pool runs): its bytes are decoded there by their charset, and
 * reduced rules are matched there.
 */
import { describe, expect, it } from 'vitest';
import run from '../../workers/extract.worker.js';
import { pageFields } from './page-content.js';
import { unwrap, type ParseOutcome } from './worker-tasks.js';

async function rulesOf(
  bytes: Uint8Array,
  contentTypeHeader?: string,
): Promise<{ text: string; count: number; sitemaps: string[] }> {
  const { fields } = pageFields(contentTypeHeader === undefined ? { bytes } : { bytes, contentTypeHeader });
  return unwrap((await run({ kind: 'robots', ...fields, agent: 'Quarry' })) as ParseOutcome<'robots'>);
}

let ruleSets = 0;

/** The worker's answer for rules, sent with their text as the pool sends them to a thread that lacks them. */
async function allows(rules: string, url: string): Promise<boolean | null> {
  return check({ kind: 'robots-check', id: `set-${++ruleSets}`, rules, url });
}

/** One URL's answer from a check task, which takes many. */
async function check({
  url,
  ...task
}: {
  kind: 'robots-check';
  id: string;
  rules?: string;
  url: string;
}): Promise<boolean | null> {
  const answers = unwrap((await run({ ...task, urls: [url] })) as ParseOutcome<'robots-check'>);
  return answers === null ? null : answers[0]!;
}

describe('robots.txt in the extraction worker', () => {
  it('decodes ISO-8859-1 bytes by the charset of their Content-Type', async () => {
    const text = 'User-agent: Quarry\nDisallow: /caf\u00e9/\nAllow: /r\u00e9sum\u00e9s/public\n';
    const rules = await rulesOf(Uint8Array.from(Buffer.from(text, 'latin1')), 'text/plain; charset=iso-8859-1');
    expect(rules).toEqual({
      text: 'User-agent: *\nDisallow: /caf\u00e9/\nAllow: /r\u00e9sum\u00e9s/public',
      count: 2,
      sitemaps: [],
    });
    expect(await allows(rules.text, 'https://site.example/caf%C3%A9/menu')).toBe(false);
    expect(await allows(rules.text, 'https://site.example/cafe/menu')).toBe(true);
  });

  it('decodes UTF-8 behind a byte order mark, whatever the Content-Type says', async () => {
    const bytes = Uint8Array.from([
      0xef,
      0xbb,
      0xbf,
      ...Buffer.from('User-agent: Quarry\r\nDisallow: /na\u00efve\r\n\r\nUser-agent: *\r\nDisallow: /\r\n'),
    ]);
    const rules = await rulesOf(bytes, 'text/plain');
    expect(rules).toEqual({ text: 'User-agent: *\nDisallow: /na\u00efve', count: 1, sitemaps: [] });
    expect(await allows(rules.text, 'https://site.example/na%C3%AFve/x')).toBe(false);
    expect(await allows(rules.text, 'https://site.example/other')).toBe(true);
  });

  it('matches a large rule set on any origin, with the library’s wildcards and end anchors', async () => {
    const lines = Array.from({ length: 5000 }, (_, i) => `Disallow: /section-${i}/*.pdf$`);
    const rules = await rulesOf(
      Uint8Array.from(Buffer.from(`User-agent: *\n${lines.join('\n')}\nAllow: /section-7/open.pdf\n`)),
    );
    expect(rules.count).toBe(5001);
    expect(await allows(rules.text, 'https://a.example/section-4999/x/report.pdf')).toBe(false);
    expect(await allows(rules.text, 'http://b.example:8080/section-4999/x/report.pdf?download=1')).toBe(true);
    expect(await allows(rules.text, 'https://a.example/section-7/open.pdf')).toBe(true);
  });

  it('keeps a parsed rule set by its id, and answers null for one it was never sent', async () => {
    const rules = 'User-agent: *\nDisallow: /private/';
    expect(await check({ kind: 'robots-check', id: 'kept', url: 'https://a.example/private/x' })).toBeNull();
    expect(await check({ kind: 'robots-check', id: 'kept', rules, url: 'https://a.example/private/x' })).toBe(false);
    expect(await check({ kind: 'robots-check', id: 'kept', url: 'https://a.example/private/y' })).toBe(false);
    expect(await check({ kind: 'robots-check', id: 'kept', url: 'https://a.example/public' })).toBe(true);
  });
});
