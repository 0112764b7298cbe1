/**
 * How deep an HTML document nests its elements, measured in linear time
 * before it is parsed. The tree builder under linkedom (htmlparser2) keeps
 * its open elements in an array it shifts and unshifts, so each level of
 * nesting costs time proportional to the depth: 200,000 nested <div>s take
 * seconds. Browsers stop nesting at 512 levels; Quarry refuses documents
 * deeper than that instead of parsing them.
 *
 * The measure replays htmlparser2's tree-building rules — implied end tags
 * (<li>, <p>, <td>, <option> …), void elements, self-closing tags in SVG
 * and MathML, end tags that close several elements — on a stack with O(1)
 * operations, so unclosed <li>s and <p>s of ordinary pages do not count as
 * nesting.
 */
import { Tokenizer, type TokenizerCallbacks } from 'htmlparser2';
import { AppError } from '../../core/errors.js';
import { MAX_MARKUP_DEPTH } from './types.js';
import { HEADING_TAGS } from './html-tags.js';

const P = new Set(['p']);
const FORM_TAGS = new Set(['input', 'option', 'optgroup', 'select', 'button', 'datalist', 'textarea']);
const TABLE_SECTIONS = new Set(['thead', 'tbody']);
const DD_DT = new Set(['dd', 'dt']);
const RT_RP = new Set(['rt', 'rp']);
/** Which open elements a start tag closes first (as htmlparser2 10 does). */
const IMPLIED_CLOSES = new Map<string, ReadonlySet<string>>([
  ['tr', new Set(['tr', 'th', 'td'])],
  ['th', new Set(['th'])],
  ['td', new Set(['thead', 'th', 'td'])],
  ['body', new Set(['head', 'link', 'script'])],
  ['li', new Set(['li'])],
  ['option', new Set(['option'])],
  ['optgroup', new Set(['optgroup', 'option'])],
  ['dd', DD_DT],
  ['dt', DD_DT],
  ['rt', RT_RP],
  ['rp', RT_RP],
  ['tbody', TABLE_SECTIONS],
  ['tfoot', TABLE_SECTIONS],
  ...['select', 'input', 'output', 'button', 'datalist', 'textarea'].map((name) => [name, FORM_TAGS] as const),
  ...[
    'p',
    ...HEADING_TAGS,
    'address',
    'article',
    'aside',
    'blockquote',
    'details',
    'div',
    'dl',
    'fieldset',
    'figcaption',
    'figure',
    'footer',
    'form',
    'header',
    'hr',
    'main',
    'nav',
    'ol',
    'pre',
    'section',
    'table',
    'ul',
  ].map((name) => [name, P] as const),
]);
const VOID_ELEMENTS = new Set([
  'area',
  'base',
  'basefont',
  'br',
  'col',
  'command',
  'embed',
  'frame',
  'hr',
  'img',
  'input',
  'isindex',
  'keygen',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);
const FOREIGN_ROOTS = new Set(['math', 'svg']);
const HTML_INTEGRATION_POINTS = new Set([
  'mi',
  'mo',
  'mn',
  'ms',
  'mtext',
  'annotation-xml',
  'foreignobject',
  'desc',
  'title',
]);

/** Tracks the parser's stack of open elements; stops the tokenizer once `limit` is passed. */
class DepthMeter implements TokenizerCallbacks {
  readonly tokenizer: Tokenizer;
  exceeded = false;
  private readonly open: string[] = [];
  private readonly openByName = new Map<string, number>();
  /** true inside <svg>/<math> (self-closing tags close there), false at HTML integration points. */
  private readonly foreign: boolean[] = [false];
  private tagName = '';

  constructor(
    private readonly html: string,
    private readonly limit: number,
  ) {
    this.tokenizer = new Tokenizer({ xmlMode: false, decodeEntities: true }, this);
  }

  onopentagname(start: number, end: number): void {
    const name = this.html.slice(start, end).toLowerCase();
    this.tagName = name;
    const closes = IMPLIED_CLOSES.get(name);
    if (closes) while (this.open.length > 0 && closes.has(this.open.at(-1)!)) this.pop();
    if (VOID_ELEMENTS.has(name)) return;
    this.push(name);
    if (FOREIGN_ROOTS.has(name)) this.foreign.push(true);
    else if (HTML_INTEGRATION_POINTS.has(name)) this.foreign.push(false);
  }

  onselfclosingtag(): void {
    // Outside foreign content "<div/>" is an ordinary start tag.
    if (this.foreign.at(-1) && this.open.at(-1) === this.tagName) this.pop();
  }

  onclosetag(start: number, end: number): void {
    const name = this.html.slice(start, end).toLowerCase();
    if (FOREIGN_ROOTS.has(name) || HTML_INTEGRATION_POINTS.has(name)) {
      if (this.foreign.length > 1) this.foreign.pop();
    }
    if (VOID_ELEMENTS.has(name) || !this.openByName.get(name)) return;
    // Closes the nearest open element of that name and everything opened inside it.
    while (this.open.length > 0 && this.pop() !== name);
  }

  private push(name: string): void {
    this.open.push(name);
    this.openByName.set(name, (this.openByName.get(name) ?? 0) + 1);
    if (this.open.length > this.limit && !this.exceeded) {
      this.exceeded = true;
      this.tokenizer.pause();
    }
  }

  private pop(): string {
    const name = this.open.pop()!;
    this.openByName.set(name, this.openByName.get(name)! - 1);
    return name;
  }

  onattribdata(): void {}
  onattribentity(): void {}
  onattribend(): void {}
  onattribname(): void {}
  oncdata(): void {}
  oncomment(): void {}
  ondeclaration(): void {}
  onend(): void {}
  onopentagend(): void {}
  onprocessinginstruction(): void {}
  ontext(): void {}
  ontextentity(): void {}
}

/** True when the document nests elements more than `limit` levels deep, as the parser would build it. */
export function nestsDeeperThan(html: string, limit = MAX_MARKUP_DEPTH): boolean {
  const meter = new DepthMeter(html, limit);
  meter.tokenizer.write(html);
  if (!meter.exceeded) meter.tokenizer.end();
  return meter.exceeded;
}

/** Thrown for documents past MAX_MARKUP_DEPTH; callers name the field (400) or fail the page ("markup_too_deep"). */
export class MarkupTooDeepError extends AppError {
  constructor() {
    super(
      'INVALID_INPUT',
      `the HTML nests elements more than ${MAX_MARKUP_DEPTH} levels deep, which no browser renders; it is not read`,
      {
        details: { reason: 'markup_too_deep', limit: MAX_MARKUP_DEPTH },
      },
    );
  }
}

export function assertReadableNesting(html: string): void {
  if (nestsDeeperThan(html)) throw new MarkupTooDeepError();
}
