/**
 * docs/configuration.md, generated: every setting of the configuration
 * schema (app/config.ts with the sections services declare), found by
 * walking the schema itself, with its environment variables (probed from
 * app/config.ts's fromEnv), its type and default (from the schema) and its
 * meaning (the setting's doc comment, setting-comments.ts). A section added
 * to the schema appears on the next `npm run docs:config` with nothing else to do.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { EnvReader } from '../../core/config.js';
import { toJsonSchema } from '../../core/json-schema.js';
import { PACKAGE_ROOT } from '../../core/paths.js';
import { configSchema, fromEnv } from '../../app/config.js';
import { RECORD_KEY, settingComments } from './setting-comments.js';

type JsonSchema = {
  type?: string;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  additionalProperties?: JsonSchema | boolean;
  required?: string[];
  default?: unknown;
  minimum?: number;
  maximum?: number;
  format?: string;
};

export interface Setting {
  path: string;
  type: string;
  /** The default as JSON, or null when there is none. */
  defaultValue: string | null;
  required: boolean;
  env: Array<{ name: string; list: boolean }>;
  meaning: string | null;
}

/** Where the page lives. */
export const CONFIGURATION_DOC = join(PACKAGE_ROOT, 'docs', 'configuration.md');

/** Every setting, in the schema's order. */
export function configSettings(): Setting[] {
  const schema = toJsonSchema(configSchema, 'input') as JsonSchema;
  const meanings = settingComments(join(PACKAGE_ROOT, 'app', 'config.ts'), 'configSchema');
  const env = environmentVariables();
  const settings: Setting[] = [];
  const visit = (node: JsonSchema, path: string, required: boolean): void => {
    const section = sectionOf(node);
    if (section) {
      if (section.properties) {
        for (const [name, child] of Object.entries(section.properties))
          visit(child, path ? `${path}.${name}` : name, section.required?.includes(name) ?? false);
      }
      if (typeof section.additionalProperties === 'object')
        visit(section.additionalProperties, `${path}.${RECORD_KEY}`, false);
      return;
    }
    settings.push({
      path,
      type: typeOf(node),
      defaultValue: node.default === undefined ? null : JSON.stringify(homeAsTilde(node.default)),
      required,
      env: env.get(path) ?? [],
      meaning: meanings.get(path) ?? null,
    });
  };
  visit(schema, '', false);
  return settings;
}

/** An object holding settings (not a setting whose value is an object, such as engine options). */
function sectionOf(node: JsonSchema): JsonSchema | null {
  const object = node.type === 'object' ? node : node.anyOf?.find((n) => n.type === 'object');
  if (!object) return null;
  const hasNamed = object.properties && Object.keys(object.properties).length > 0;
  const hasEntries =
    typeof object.additionalProperties === 'object' && object.additionalProperties.properties !== undefined;
  return hasNamed || hasEntries ? object : null;
}

function typeOf(node: JsonSchema): string {
  const alternatives = node.anyOf ?? node.oneOf;
  if (alternatives) {
    const kinds = alternatives.map(typeOf);
    return [...new Set(kinds)].join(' or ');
  }
  if (node.enum) return node.enum.map((v) => JSON.stringify(v)).join(' | ');
  if (node.type === 'array') return `list of ${node.items ? plural(typeOf(node.items)) : 'values'}`;
  if (node.type === 'null') return 'null';
  if (node.type === 'object') return 'object';
  // z.int() bounds every integer by the safe range: no bound worth writing.
  const min = node.minimum !== undefined && node.minimum > Number.MIN_SAFE_INTEGER ? node.minimum : undefined;
  const max = node.maximum !== undefined && node.maximum < Number.MAX_SAFE_INTEGER ? node.maximum : undefined;
  const bounds =
    min !== undefined && max !== undefined
      ? ` ${min}–${max}`
      : min !== undefined
        ? ` ≥ ${min}`
        : max !== undefined
          ? ` ≤ ${max}`
          : '';
  const format = node.format === 'uri' ? 'URL' : undefined;
  return `${format ?? node.type ?? 'any'}${bounds}`;
}

function plural(type: string): string {
  return /^(string|integer|number|boolean|object|URL)$/.test(type) ? `${type}s` : type;
}

/** The data directory's default names the home of whoever generated the page: written as ~, the same everywhere. */
function homeAsTilde(value: unknown): unknown {
  const home = homedir();
  return typeof value === 'string' && home && value.startsWith(home) ? `~${value.slice(home.length)}` : value;
}

/**
 * Which variables set which setting, read off fromEnv itself: every variable is given a marker value, and where a
 * marker lands in the layer names the setting. A variable that only stands in when another is unset
 * (QUARRY_PROXY, then HTTPS_PROXY) is found by asking again with the variables already placed left unset.
 */
export function environmentVariables(): Map<string, Array<{ name: string; list: boolean }>> {
  const found = new Map<string, Array<{ name: string; list: boolean }>>();
  const lists = new Set<string>();
  const placed = new Set<string>();
  const MARK = '\u0000env:';
  for (let round = 0; round < 8; round++) {
    const mark = (name: string, list = false): string | undefined => {
      if (placed.has(name)) return undefined;
      if (list) lists.add(name);
      return MARK + name;
    };
    const reader = {
      str: (n: string) => mark(n),
      num: (n: string) => mark(n),
      bool: (n: string) => mark(n),
      list: (n: string) => mark(n, true),
    };
    const raw = new Proxy({}, { get: (_target, key) => (typeof key === 'string' ? mark(key) : undefined) });
    const layer = fromEnv(reader as unknown as EnvReader, raw as Record<string, string | undefined>);
    let fresh = false;
    const walk = (value: unknown, path: string): void => {
      if (typeof value === 'string' && value.startsWith(MARK)) {
        const name = value.slice(MARK.length);
        if (placed.has(name)) return;
        placed.add(name);
        fresh = true;
        const entries = found.get(path) ?? [];
        entries.push({ name, list: lists.has(name) });
        found.set(path, entries);
      } else if (value && typeof value === 'object') {
        for (const [key, inner] of Object.entries(value)) walk(inner, path ? `${path}.${key}` : key);
      }
    };
    walk(layer, '');
    if (!fresh) break;
  }
  return found;
}

/** The page itself. */
export function configurationReference(settings: Setting[] = configSettings()): string {
  const sections = new Map<string, Setting[]>();
  for (const setting of settings) {
    const top = setting.path.includes('.') ? setting.path.split('.')[0]! : '';
    sections.set(top, [...(sections.get(top) ?? []), setting]);
  }
  const lines = [
    '# Configuration reference',
    '',
    '<!-- Generated by `npm run docs:config` from the configuration schema (app/config.ts and the sections ' +
      'services declare). Do not edit by hand: change the schema or its comments and regenerate. -->',
    '',
    'Quarry reads its settings in layers, later ones winning: the defaults below, a JSON file',
    '(`quarry.config.json` in the working directory, or the file `QUARRY_CONFIG` names), environment',
    'variables, then command-line overrides. A file holds the settings as nested objects',
    '(`{"outbound": {"proxy": "http://proxy:3128"}}`); a bad value stops start-up naming the setting.',
    'A list given in an environment variable is comma-separated. `<id>` stands for any key of a map',
    '(for `engines`, an engine id). Where the LLM settings take a key from `OPENAI_API_KEY` or',
    '`ANTHROPIC_API_KEY`, docs/llm.md says when.',
    '',
  ];
  for (const [section, entries] of sections) {
    lines.push(
      `## ${section === '' ? 'General' : `\`${section}\``}`,
      '',
      '| setting | environment | default | type | meaning |',
      '|---|---|---|---|---|',
    );
    for (const s of entries) {
      const env = s.env.map((e) => `\`${e.name}\``).join(', ');
      const fallback = s.required ? 'required' : '—';
      lines.push(
        `| \`${s.path}\` | ${env} | ${s.defaultValue === null ? fallback : `\`${cell(s.defaultValue)}\``} | ${cell(s.type)} | ${cell(s.meaning ?? '')} |`,
      );
    }
    lines.push('');
  }
  return lines.join('\n');
}

/** Text fit for one table cell. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();
}
