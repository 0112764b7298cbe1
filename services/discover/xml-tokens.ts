/**
 * A minimal well-formedness-checking XML tokenizer, enough for sitemaps:
 * elements, text, CDATA, comments, processing instructions and a DOCTYPE.
 * It throws AppError UPSTREAM_FAILED on broken markup (unterminated
 * constructs, mismatched or unclosed tags, more than one root, stray text).
 */
import { decodeXmlEntities } from '../../core/entities.js';
import { AppError } from '../../core/errors.js';

export type XmlToken =
  | { type: 'open'; name: string; selfClosing: boolean }
  | { type: 'close'; name: string }
  | { type: 'text'; value: string };

const TAG_NAME = /<([A-Za-z_][\w.:-]*)/y;
/** One attribute; read in a loop, since a regex repeating a group over a million attributes overflows the stack. */
const ATTRIBUTE = /\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*')/y;
const TAG_END = /\s*(\/?)>/y;
const END_TAG = /<\/([A-Za-z_][\w.:-]*)\s*>/y;

export function* xmlTokens(xml: string): Generator<XmlToken> {
  const open: string[] = [];
  let rootSeen = false;
  let position = xml.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (position < xml.length) {
    const lt = xml.indexOf('<', position);
    const textEnd = lt === -1 ? xml.length : lt;
    if (textEnd > position) {
      const text = xml.slice(position, textEnd);
      if (open.length === 0 && text.trim() !== '') broken(`text outside the root element at offset ${position}`);
      if (open.length > 0) yield { type: 'text', value: decodeXmlEntities(text) };
    }
    if (lt === -1) break;
    if (xml.startsWith('<!--', lt)) {
      position = after(xml, '-->', lt + 4, 'comment');
    } else if (xml.startsWith('<![CDATA[', lt)) {
      const end = after(xml, ']]>', lt + 9, 'CDATA section');
      if (open.length === 0) broken(`CDATA outside the root element at offset ${lt}`);
      yield { type: 'text', value: xml.slice(lt + 9, end - 3) };
      position = end;
    } else if (xml.startsWith('<?', lt)) {
      position = after(xml, '?>', lt + 2, 'processing instruction');
    } else if (xml.startsWith('<!', lt)) {
      // DOCTYPE, possibly with an internal subset in [...].
      const bracket = xml.indexOf('[', lt);
      const close = xml.indexOf('>', lt);
      position =
        bracket !== -1 && bracket < close ? after(xml, ']>', bracket, 'DOCTYPE') : after(xml, '>', lt, 'DOCTYPE');
    } else if (xml.startsWith('</', lt)) {
      END_TAG.lastIndex = lt;
      const match = END_TAG.exec(xml);
      if (!match) broken(`malformed end tag at offset ${lt}`);
      const name = match[1]!;
      const expected = open.pop();
      if (expected !== name)
        broken(`</${name}> at offset ${lt} does not close ${expected ? `<${expected}>` : 'anything'}`);
      yield { type: 'close', name };
      position = END_TAG.lastIndex;
    } else {
      const tag = readStartTag(xml, lt);
      if (!tag) broken(`malformed tag at offset ${lt}`);
      const { name, selfClosing } = tag;
      if (open.length === 0) {
        if (rootSeen) broken(`a second root element <${name}> at offset ${lt}`);
        rootSeen = true;
      }
      yield { type: 'open', name, selfClosing };
      if (selfClosing) yield { type: 'close', name };
      else open.push(name);
      position = tag.end;
    }
  }
  if (open.length > 0) broken(`<${open.at(-1)}> is never closed`);
  if (!rootSeen) broken('no root element');
}

function readStartTag(xml: string, at: number): { name: string; selfClosing: boolean; end: number } | null {
  TAG_NAME.lastIndex = at;
  const name = TAG_NAME.exec(xml)?.[1];
  if (name === undefined) return null;
  let position = TAG_NAME.lastIndex;
  for (;;) {
    ATTRIBUTE.lastIndex = position;
    if (!ATTRIBUTE.test(xml)) break;
    position = ATTRIBUTE.lastIndex;
  }
  TAG_END.lastIndex = position;
  const end = TAG_END.exec(xml);
  return end ? { name, selfClosing: end[1] === '/', end: TAG_END.lastIndex } : null;
}

/** The part after a namespace prefix: "image:loc" → "loc". */
export function localName(name: string): string {
  return name.slice(name.indexOf(':') + 1);
}

function after(xml: string, terminator: string, from: number, what: string): number {
  const end = xml.indexOf(terminator, from);
  if (end === -1) broken(`unterminated ${what} at offset ${from}`);
  return end + terminator.length;
}

function broken(reason: string): never {
  throw new AppError('UPSTREAM_FAILED', `malformed XML: ${reason}`);
}
