/**
 * A seeded mutator of HTML pages for the extraction fuzz (issue 44): the same
 * seed gives the same mutated page on every machine. Each mutation breaks one
 * part the way real pages do — truncation, bad numeric and named references,
 * broken JSON-LD, unclosed and misnested tags, wrong declared charsets and
 * invalid bytes, huge attributes, deep nesting, bogus tables — and says what
 * it did, so a failure can be replayed from its seed and kind.
 *
 * Pure: no I/O, no clock; the page goes in as text and comes out as text, or
 * as bytes with a Content-Type header when the mutation is about encoding.
 */
import { seededRandom } from '../../core/seeded-random.js';
import { MAX_MARKUP_DEPTH } from '../../services/extract/types.js';

export const MUTATION_KINDS = [
  'truncate',
  'numeric_entities',
  'named_entities',
  'json_ld',
  'unclosed_tags',
  'misnested_tags',
  'wrong_charset',
  'invalid_bytes',
  'huge_attribute',
  'deep_nesting',
  'bogus_table',
] as const;

export type MutationKind = (typeof MUTATION_KINDS)[number];

export interface MutatedPage {
  kinds: MutationKind[];
  /** The mutated markup (for encoding mutations: the bytes decoded as UTF-8, for reading along). */
  html: string;
  /** Set by encoding mutations: the page as a server would send it. */
  bytes?: Uint8Array;
  contentTypeHeader?: string;
  /** A short account of what was done, for a failure report. */
  notes: string[];
}

type Random = () => number;

interface Draft {
  html: string;
  bytes?: Uint8Array;
  contentTypeHeader?: string;
  notes: string[];
}

function int(random: Random, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1));
}

function pick<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

/** An offset just after some tag's ">", where text or markup can go; the end when there is none. */
function afterSomeTag(random: Random, html: string): number {
  const from = int(random, 0, Math.max(0, html.length - 1));
  const gt = html.indexOf('>', from);
  const at = gt === -1 ? html.lastIndexOf('>') : gt;
  return at === -1 ? html.length : at + 1;
}

function insertAt(html: string, at: number, text: string): string {
  return html.slice(0, at) + text + html.slice(at);
}

/** Several insertions, each after a tag. */
function sprinkle(random: Random, html: string, count: number, make: () => string): string {
  let out = html;
  for (let i = 0; i < count; i++) out = insertAt(out, afterSomeTag(random, out), make());
  return out;
}

const BAD_NUMERIC = [
  '&#99999999;',
  '&#x110000;',
  '&#xFFFFFFFFFF;',
  '&#0;',
  '&#55296;',
  '&#xD800;',
  '&#x;',
  '&#;',
  '&#-5;',
  '&#1114112;',
  '&#x1F600',
  '&#65',
];
const BAD_NAMED = ['&bogus;', '&amp', '&nbsp', '&;', '&&&', '&lt', '&copy=', '&AMP;', '&notin', '&ThisIsNotAnEntity;'];

function numericEntities(random: Random, d: Draft): void {
  const huge = () => `&#${'9'.repeat(int(random, 20, 2000))};`;
  d.html = sprinkle(random, d.html, int(random, 3, 40), () => (random() < 0.2 ? huge() : pick(random, BAD_NUMERIC)));
  // In an attribute too: an image's alt and a link's href.
  d.html = d.html.replace(/(<(?:img|a)\b[^>]*?\b(?:alt|href)=")/i, `$1${pick(random, BAD_NUMERIC)}`);
  d.notes.push('bad numeric references in text and one attribute');
}

function namedEntities(random: Random, d: Draft): void {
  const huge = () => `&${'a'.repeat(int(random, 100, 20_000))};`;
  d.html = sprinkle(random, d.html, int(random, 3, 40), () => (random() < 0.2 ? huge() : pick(random, BAD_NAMED)));
  d.notes.push('bad and huge named references');
}

const JSON_LD = /(<script[^>]*application\/ld\+json[^>]*>)([\s\S]*?)(<\/script>)/gi;
const JSON_LD_BREAKS: Array<(random: Random, json: string) => string> = [
  (random, json) => json.slice(0, int(random, 0, json.length)),
  (_, json) => json.replace(/"(headline|name|description)"\s*:\s*"/i, '"$1":"\\uZZZZ \\ud800 \\x41 \\'),
  (_, json) => json.replace(/"(headline|name|description)"\s*:\s*"/i, '"$1":"&#99999999; &#x110000; &bogus; '),
  (random, json) =>
    json.replace(
      /"(headline|name|author)"\s*:/i,
      `"$1":${'['.repeat(int(random, 1000, 50_000))}"x"${']'.repeat(int(random, 0, 2))},"_":`,
    ),
  (_, json) => `${json}}}]],,`,
  (_, json) => json.replace(/"@type"\s*:\s*"[^"]*"/, '"@type":{"@type":["NewsArticle",{"x":null}]}'),
  (_, json) => json.replace(/"(author|publisher)"\s*:/, '"$1":{"@id":{"not":"a string"},"name":[[["deep"]]]},"_":'),
];
const ARTICLE_LD =
  '{"@context":"https://schema.org","@type":"NewsArticle","headline":"Headline","author":{"@type":"Person","n' +
  'ame":"A. Writer"},"keywords":"one,two"}';

function jsonLd(random: Random, d: Draft): void {
  let found = false;
  d.html = d.html.replace(JSON_LD, (_, open: string, json: string, close: string) => {
    found = true;
    return open + pick(random, JSON_LD_BREAKS)(random, json) + close;
  });
  if (!found) {
    const broken = pick(random, JSON_LD_BREAKS)(random, ARTICLE_LD);
    const head = d.html.search(/<\/head>/i);
    d.html = insertAt(d.html, head === -1 ? 0 : head, `<script type="application/ld+json">${broken}</script>`);
  }
  d.notes.push(found ? 'broke the page JSON-LD' : 'added broken JSON-LD');
}

const CONTAINERS = [
  'div',
  'span',
  'p',
  'b',
  'i',
  'a',
  'li',
  'ul',
  'section',
  'article',
  'em',
  'font',
  'form',
  'td',
  'tr',
  'table',
];

function unclosedTags(random: Random, d: Draft): void {
  if (random() < 0.5) {
    // Drop some end tags.
    const closers = [...d.html.matchAll(/<\/(div|p|span|li|ul|section|article|a|b|i|table|tr|td)\s*>/gi)];
    const drop = new Set(
      Array.from({ length: Math.min(closers.length, int(random, 1, 30)) }, () => int(random, 0, closers.length - 1)),
    );
    let out = '';
    let last = 0;
    for (const [i, m] of closers.entries()) {
      if (!drop.has(i)) continue;
      out += d.html.slice(last, m.index);
      last = m.index! + m[0].length;
    }
    d.html = out + d.html.slice(last);
    d.notes.push(`dropped ${drop.size} end tags`);
  } else {
    d.html = sprinkle(random, d.html, int(random, 1, 30), () => `<${pick(random, CONTAINERS)} class="x">`);
    d.notes.push('inserted start tags that are never closed');
  }
}

function misnestedTags(random: Random, d: Draft): void {
  const pairs = int(random, 1, 20);
  for (let i = 0; i < pairs; i++) {
    const [a, b] = [pick(random, CONTAINERS), pick(random, CONTAINERS)];
    const start = afterSomeTag(random, d.html);
    d.html = insertAt(d.html, start, `<${a}><${b}>`);
    d.html = insertAt(d.html, afterSomeTag(random, d.html), `</${a}></${b}>`);
  }
  d.html = sprinkle(random, d.html, int(random, 0, 10), () =>
    pick(random, [
      '</div>',
      '</p>',
      '</table>',
      '</body>',
      '</html>',
      '</article>',
      '</li>',
      '<html>',
      '<body>',
      '<head>',
    ]),
  );
  d.notes.push(`${pairs} misnested pairs and stray tags`);
}

const WRONG_CHARSETS = [
  'iso-8859-1',
  'windows-1252',
  'shift_jis',
  'koi8-r',
  'gb18030',
  'euc-kr',
  'utf-16le',
  'utf-16',
  'x-no-such-charset',
  'utf-7',
  '',
];

function withoutDeclaredCharset(html: string): string {
  return html.replace(/<meta[^>]+charset\s*=\s*["']?[\w.:-]*["']?[^>]*>/gi, '');
}

function wrongCharset(random: Random, d: Draft): void {
  const charset = pick(random, WRONG_CHARSETS);
  const where = pick(random, ['header', 'meta', 'both'] as const);
  let html = d.html;
  if (where !== 'header')
    html = withoutDeclaredCharset(html).replace(/<head[^>]*>/i, (m) => `${m}<meta charset="${charset}">`);
  d.html = html;
  d.bytes = new TextEncoder().encode(html);
  d.contentTypeHeader = where === 'meta' ? 'text/html' : `text/html; charset=${charset}`;
  d.notes.push(`declared charset "${charset}" (${where}) on UTF-8 bytes`);
}

const INVALID_SEQUENCES = [
  [0xff],
  [0xfe, 0xfe],
  [0xc3],
  [0xe2, 0x82],
  [0xf0, 0x9f, 0x98],
  [0xc0, 0xaf],
  [0xed, 0xa0, 0x80],
  [0x00],
  [0xf8, 0x88, 0x80, 0x80, 0x80],
];

function invalidBytes(random: Random, d: Draft): void {
  const bytes = Array.from(new TextEncoder().encode(d.html));
  const count = int(random, 1, 60);
  for (let i = 0; i < count; i++) bytes.splice(int(random, 0, bytes.length), 0, ...pick(random, INVALID_SEQUENCES));
  d.bytes = Uint8Array.from(bytes);
  d.contentTypeHeader = random() < 0.5 ? 'text/html; charset=utf-8' : 'text/html';
  d.html = new TextDecoder().decode(d.bytes);
  d.notes.push(`${count} invalid UTF-8 sequences`);
}

function hugeAttribute(random: Random, d: Draft): void {
  const size = int(random, 50_000, 1_000_000);
  const value = pick(random, ['a', 'x y ', '&amp;', '"', "'", '<>', 'é'] as const);
  const name = pick(random, ['data-x', 'class', 'style', 'href', 'alt', 'title', 'srcset', 'content']);
  const huge =
    value === '"'
      ? `${name}='${'"'.repeat(size)}'`
      : `${name}="${(value === "'" ? "'" : value).repeat(Math.ceil(size / value.length))}"`;
  const tag = /<(p|div|img|a|meta|span|article)\b/i.exec(d.html);
  const many =
    random() < 0.25 ? Array.from({ length: int(random, 1000, 20_000) }, (_, i) => `a${i}="${i}"`).join(' ') : huge;
  d.html = tag ? insertAt(d.html, tag.index + tag[0].length, ` ${many}`) : `<div ${many}></div>${d.html}`;
  d.notes.push(many === huge ? `${name} of ${size} characters` : 'thousands of attributes on one element');
}

function deepNesting(random: Random, d: Draft): void {
  // Well under the depth browsers nest to, with room for the page's own nesting and other mutations
  // (a page nested past it is refused as a whole, by design: markup_too_deep, EMPTY_CONTENT).
  const depth = int(random, 30, Math.floor(MAX_MARKUP_DEPTH / 4));
  const tag = pick(random, ['div', 'span', 'b', 'section', 'font', 'blockquote']);
  const at = afterSomeTag(random, d.html);
  const closed = random() < 0.5;
  d.html = insertAt(d.html, at, `<${tag}>`.repeat(depth) + 'nested' + (closed ? `</${tag}>`.repeat(depth) : ''));
  d.notes.push(`${depth} nested <${tag}>${closed ? '' : ', never closed'}`);
}

const BOGUS_TABLES: Array<(random: Random) => string> = [
  () => '<table><tr><td colspan="99999999" rowspan="-1">x</td><td colspan="abc">y</td></tr></table>',
  (random) => `<table>${'<tr>'.repeat(int(random, 100, 2000))}</table>`,
  (random) => `<table><tr>${'<td></td>'.repeat(int(random, 1000, 20_000))}</tr></table>`,
  () => '<td>cell outside a table</td><tr><th>row outside</th></tr>',
  () => '<table><caption><table><tr><td><table></caption></td></tr>',
  (random) => `${'<table><tr><td>'.repeat(int(random, 5, 30))}deep`,
  () => '<table>',
];

function bogusTable(random: Random, d: Draft): void {
  d.html = sprinkle(random, d.html, int(random, 1, 5), () => pick(random, BOGUS_TABLES)(random));
  d.notes.push('bogus tables');
}

function truncate(random: Random, d: Draft): void {
  const length = d.html.length;
  const at = int(random, Math.floor(length * 0.1), Math.max(0, length - 1));
  d.html = d.html.slice(0, at);
  d.notes.push(`truncated at ${at} of ${length}`);
}

const MUTATORS: Record<MutationKind, (random: Random, d: Draft) => void> = {
  truncate,
  numeric_entities: numericEntities,
  named_entities: namedEntities,
  json_ld: jsonLd,
  unclosed_tags: unclosedTags,
  misnested_tags: misnestedTags,
  wrong_charset: wrongCharset,
  invalid_bytes: invalidBytes,
  huge_attribute: hugeAttribute,
  deep_nesting: deepNesting,
  bogus_table: bogusTable,
};

/** Encoding mutations change the bytes, so they come last and one at a time. */
const ENCODING: ReadonlySet<MutationKind> = new Set(['wrong_charset', 'invalid_bytes']);

/**
 * One mutated page: one mutation, or (a quarter of the time) two, the second
 * a text mutation after the first. `only` forces the kind (unit tests, replays).
 */
export function mutatePage(html: string, seed: number, only?: MutationKind): MutatedPage {
  const random = seededRandom(seed);
  const kinds: MutationKind[] = [only ?? pick(random, MUTATION_KINDS)];
  if (!only && !ENCODING.has(kinds[0]!) && random() < 0.25) {
    const second = pick(random, MUTATION_KINDS);
    // The encoding mutation goes last: it turns the text into bytes.
    if (second !== kinds[0]) kinds.push(second);
  }
  const draft: Draft = { html, notes: [] };
  for (const kind of kinds) MUTATORS[kind](random, draft);
  const page: MutatedPage = { kinds, html: draft.html, notes: draft.notes };
  if (draft.bytes) {
    page.bytes = draft.bytes;
    if (draft.contentTypeHeader !== undefined) page.contentTypeHeader = draft.contentTypeHeader;
  }
  return page;
}
