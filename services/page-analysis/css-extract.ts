/**
 * The json_css strategy: a schema of CSS selectors turned into JSON records.
 *
 *   { name?, baseSelector, fields: [{ name, selector?, type, attribute?, fields?, default? }] }
 *
 * One record per element matching baseSelector; each field is read relative
 * to it (a field without selector reads the base element itself):
 *   text        the first match's text, whitespace collapsed
 *   attribute   the first match's `attribute` (href/src resolved against the page URL)
 *   html        the first match's inner HTML
 *   nested      an object of `fields` read from the first match
 *   list        every match: its text, or an object of `fields` when fields are given
 *   nested_list every match as an object of `fields`
 * A field that matches nothing is `default` (null when absent). Selectors run
 * on linkedom, in the extraction worker pool; an invalid one is found when
 * the schema is checked (css-schema.ts), before any page is fetched.
 */
import { baseUrlOf, parseDocument } from '../extract/parse-document.js';
import type { CssField, CssSchema } from './css-schema.js';

const MAX_RECORDS = 500;
const URL_ATTRIBUTES = new Set(['href', 'src', 'action', 'poster', 'data-src', 'cite']);

function collapse(text: string | null | undefined): string {
  return (text ?? '').replace(/\s+/g, ' ').trim();
}

function targets(element: Element, selector: string | undefined): Element[] {
  return selector === undefined ? [element] : Array.from(element.querySelectorAll(selector));
}

function readAttribute(element: Element, attribute: string, base: URL | null): string | null {
  const value = element.getAttribute(attribute);
  if (value === null) return null;
  if (URL_ATTRIBUTES.has(attribute.toLowerCase()) && base) {
    try {
      return new URL(value.trim(), base).href;
    } catch {
      return value;
    }
  }
  return value;
}

function readObject(element: Element, fields: CssField[], base: URL | null): Record<string, unknown> {
  return Object.fromEntries(fields.map((field) => [field.name, readField(element, field, base)]));
}

function readField(element: Element, field: CssField, base: URL | null): unknown {
  const found = targets(element, field.selector);
  const first = found[0];
  const fallback = field.default ?? null;
  switch (field.type) {
    case 'text':
      return first ? collapse(first.textContent) || fallback : fallback;
    case 'attribute':
      return first ? (readAttribute(first, field.attribute!, base) ?? fallback) : fallback;
    case 'html':
      return first ? first.innerHTML.trim() : fallback;
    case 'nested':
      return first ? readObject(first, field.fields!, base) : fallback;
    case 'list':
      return found
        .slice(0, MAX_RECORDS)
        .map((el) => (field.fields ? readObject(el, field.fields, base) : collapse(el.textContent)));
    case 'nested_list':
      return found.slice(0, MAX_RECORDS).map((el) => readObject(el, field.fields!, base));
  }
}

/** One record per baseSelector match, in document order. */
export function extractWithCss(html: string, pageUrl: string, schema: CssSchema): Array<Record<string, unknown>> {
  const document = parseDocument(html);
  const base = baseUrlOf(document, pageUrl);
  return Array.from(document.querySelectorAll(schema.baseSelector))
    .slice(0, MAX_RECORDS)
    .map((element) => readObject(element, schema.fields, base));
}
