/**
 * The json_css schema as a request gives it, checked before any page is
 * fetched: shape, field types, nesting, and every selector tried on a fixed
 * probe element (linkedom, on this thread: no page is parsed here). The
 * records themselves are read in the worker pool (css-extract.ts).
 */
import { AppError } from '../../core/errors.js';
import { parseDocument } from '../extract/parse-document.js';

export const FIELD_TYPES = ['text', 'attribute', 'html', 'nested', 'list', 'nested_list'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

export interface CssField {
  name: string;
  selector?: string;
  type: FieldType;
  attribute?: string;
  fields?: CssField[];
  default?: unknown;
}

export interface CssSchema {
  name?: string;
  baseSelector: string;
  fields: CssField[];
}

const MAX_DEPTH = 5;

function invalid(path: string, message: string): AppError {
  return new AppError('INVALID_INPUT', `${path}: ${message}`);
}

const probe = parseDocument('<div><p>probe</p></div>');

function checkSelector(selector: unknown, path: string): string {
  if (typeof selector !== 'string' || selector.trim() === '') throw invalid(path, 'must be a non-empty CSS selector');
  if (selector.length > 1000) throw invalid(path, 'CSS selector longer than 1000 characters');
  try {
    probe.querySelectorAll(selector);
  } catch (error) {
    throw invalid(path, `invalid CSS selector "${selector}": ${(error as Error).message}`);
  }
  // linkedom accepts a few malformed selectors silently; catch the common slips.
  if (/\.\.|##|^[>+~]|[>+~,]\s*$/.test(selector.trim())) throw invalid(path, `invalid CSS selector "${selector}"`);
  return selector;
}

function checkFields(value: unknown, path: string, depth: number): CssField[] {
  if (!Array.isArray(value) || value.length === 0) throw invalid(path, 'must be a non-empty array of fields');
  if (depth > MAX_DEPTH) throw invalid(path, `fields nest at most ${MAX_DEPTH} levels deep`);
  const names = new Set<string>();
  return value.map((raw, i) => {
    const at = `${path}[${i}]`;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw invalid(at, 'must be an object');
    const field = raw as Record<string, unknown>;
    const unknown = Object.keys(field).filter(
      (k) => !['name', 'selector', 'type', 'attribute', 'fields', 'default'].includes(k),
    );
    if (unknown.length > 0) throw invalid(at, `unknown key(s) ${unknown.join(', ')}`);
    if (typeof field.name !== 'string' || field.name === '')
      throw invalid(`${at}.name`, 'is required (a non-empty string)');
    if (names.has(field.name)) throw invalid(`${at}.name`, `duplicate field name "${field.name}"`);
    names.add(field.name);
    const type = field.type ?? 'text';
    if (typeof type !== 'string' || !(FIELD_TYPES as readonly string[]).includes(type)) {
      throw invalid(`${at}.type`, `must be one of ${FIELD_TYPES.join(', ')}`);
    }
    const out: CssField = { name: field.name, type: type as FieldType };
    if (field.selector !== undefined) out.selector = checkSelector(field.selector, `${at}.selector`);
    if (type === 'attribute') {
      if (typeof field.attribute !== 'string' || field.attribute === '')
        throw invalid(`${at}.attribute`, 'is required for type "attribute"');
      out.attribute = field.attribute;
    }
    if (type === 'nested' || type === 'nested_list' || (type === 'list' && field.fields !== undefined)) {
      out.fields = checkFields(field.fields, `${at}.fields`, depth + 1);
    }
    if (
      (type === 'nested' || type === 'nested_list' || type === 'list') &&
      out.selector === undefined &&
      type !== 'nested'
    ) {
      throw invalid(`${at}.selector`, `is required for type "${type}"`);
    }
    if ('default' in field) out.default = field.default;
    return out;
  });
}

/** Checks a schema from the request; INVALID_INPUT naming the first problem. */
export function parseCssSchema(value: unknown): CssSchema {
  const path = 'css_schema';
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw invalid(path, 'must be an object {name?, baseSelector, fields}');
  const schema = value as Record<string, unknown>;
  const unknown = Object.keys(schema).filter((k) => !['name', 'baseSelector', 'fields'].includes(k));
  if (unknown.length > 0) throw invalid(path, `unknown key(s) ${unknown.join(', ')}`);
  if (schema.baseSelector === undefined) throw invalid(`${path}.baseSelector`, 'is required');
  const out: CssSchema = {
    baseSelector: checkSelector(schema.baseSelector, `${path}.baseSelector`),
    fields: checkFields(schema.fields, `${path}.fields`, 1),
  };
  if (schema.name !== undefined) {
    if (typeof schema.name !== 'string') throw invalid(`${path}.name`, 'must be a string');
    out.name = schema.name;
  }
  return out;
}
