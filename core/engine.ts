/**
 * The engine contract. An engine is a manifest (engines/<id>/plugin.json,
 * validated against plugin.schema.json) plus pure functions: build the HTTP
 * request(s) for a query and parse a response into typed results. The core
 * does every bit of I/O, retries, timeouts and suspension.
 */
import { decodeEntities } from './entities.js';
import { AppError } from './errors.js';

export const ENGINE_CATEGORIES = [
  'general',
  'news',
  'academic',
  'images',
  'video',
  'it',
  'maps',
  'music',
  'files',
  'reference',
  'social',
  'science',
  'shopping',
  'finance',
] as const;
export type EngineCategory = (typeof ENGINE_CATEGORIES)[number];

export type ResultKind =
  | 'web'
  | 'image'
  | 'video'
  | 'paper'
  | 'news'
  | 'code'
  | 'package'
  | 'map'
  | 'music'
  | 'file'
  | 'qa'
  | 'social';

/** The engine part of plugin.json (see plugin.schema.json). */
export interface EngineManifest {
  id: string;
  /** Former ids that still resolve to this engine. */
  aliases?: string[];
  kind: 'engine';
  version: string;
  core: string;
  name: string;
  description?: string;
  categories: EngineCategory[];
  /** Default weight in merging; overridable in config (engines.<id>.weight). */
  weight: number;
  baseUrl: string;
  timeoutMs?: number;
  supports: {
    paging: boolean;
    /** Highest page the engine serves; 0 means no limit known. */
    maxPage: number;
    timeRange: boolean;
    safeSearch: boolean;
    /** Whether the language parameter changes the results. */
    languages: boolean;
    autocomplete: boolean;
  };
  /** Languages (ISO 639-1 codes, or "all") the engine supports. */
  languages: string[];
  about: {
    website: string;
    officialApi: boolean;
    /** Response format of the endpoint the engine parses. */
    results: 'HTML' | 'JSON' | 'XML' | 'RSS';
    requiresApiKey: boolean;
    resultKind: ResultKind;
    /** How the parser was verified: a real capture, or the documented format only. */
    verifiedOn: 'capture' | 'documented';
    notes?: string;
  };
}

export type SafeSearch = 0 | 1 | 2; // off, moderate, strict
export type TimeRange = 'day' | 'week' | 'month' | 'year';

export interface EngineQuery {
  query: string;
  /** 1-based page number. */
  page: number;
  /** ISO 639-1 language code, or "all". */
  language: string;
  /** Optional region, e.g. "en-US". */
  region?: string;
  safeSearch: SafeSearch;
  timeRange?: TimeRange;
}

/** Per-engine settings: the manifest's baseUrl unless overridden in config, plus the API key and extra options. */
export interface EngineSettings {
  baseUrl: string;
  apiKey?: string;
  options: Record<string, unknown>;
}

export interface HttpRequestSpec {
  method: 'GET' | 'POST';
  url: string;
  headers?: Record<string, string>;
  /** Raw body (form or JSON encoded by the engine). */
  body?: string;
  /** Opaque state for multi-step engines; handed back on the response. */
  meta?: Record<string, unknown>;
}

export interface EngineResponse {
  status: number;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  body: string;
  /** Final URL after redirects. */
  url: string;
  request: HttpRequestSpec;
}

export interface EngineResult {
  url: string;
  title: string;
  snippet: string;
  /** ISO 8601 date, when the engine gives one. */
  publishedDate?: string;
  author?: string;
  /** Image and video results. */
  thumbnail?: string;
  imageUrl?: string;
  width?: number;
  height?: number;
  /** The page the image or video is on, when different from url. */
  sourceUrl?: string;
  /** Papers. */
  authors?: string[];
  doi?: string;
  /** Anything else the engine knows (durations, stars, journal, ...). */
  extra?: Record<string, unknown>;
}

/** What parsing one response yields: results, or the next request of a multi-step engine. */
export type EngineStep = { results: EngineResult[] } | { next: HttpRequestSpec };

export interface EngineContext {
  query: EngineQuery;
  settings: EngineSettings;
  manifest: EngineManifest;
}

export interface EngineDefinition {
  /** Builds the first request for a query. Pure and deterministic. */
  buildRequest(ctx: EngineContext): HttpRequestSpec;
  /** Parses a response. Throws EngineError subclasses for blocked or broken answers. */
  parseResponse(response: EngineResponse, ctx: EngineContext): EngineStep;
  autocomplete?: {
    buildRequest(query: string, ctx: Omit<EngineContext, 'query'> & { language: string }): HttpRequestSpec;
    parseResponse(response: EngineResponse): string[];
  };
}

/**
 * Where a worker thread finds the same definition, to parse answers off the
 * event loop: the default export of `module`, or — for an engine declared in
 * configuration — the `factory` export of `module` called with `spec`.
 */
export interface EngineModuleRef {
  module: string;
  factory?: string;
  spec?: unknown;
}

/** An engine as the plugin loader hands it to the engine service. */
export interface LoadedEngine {
  manifest: EngineManifest;
  definition: EngineDefinition;
  moduleRef: EngineModuleRef;
  /** Folder the engine was loaded from. */
  dir: string;
  source: 'builtin' | 'directory' | 'package' | 'config';
}

export function defineEngine(definition: EngineDefinition): EngineDefinition {
  return definition;
}

/** Typed engine failures; the core suspends an engine for suspendSeconds. */
export class EngineError extends AppError {}

export class EngineCaptchaError extends EngineError {
  constructor(
    message = 'the engine answered with a CAPTCHA page',
    readonly suspendSeconds = 3600,
  ) {
    super('ENGINE_CAPTCHA', message);
  }
}

export class EngineRateLimitedError extends EngineError {
  constructor(
    message = 'the engine answered 429 Too Many Requests',
    readonly suspendSeconds = 180,
  ) {
    super('ENGINE_RATE_LIMITED', message);
  }
}

export class EngineAccessDeniedError extends EngineError {
  constructor(
    message = 'the engine denied access',
    readonly suspendSeconds = 86400,
  ) {
    super('ENGINE_ACCESS_DENIED', message);
  }
}

export class EngineParseError extends EngineError {
  constructor(
    message = 'the engine response could not be parsed',
    readonly suspendSeconds = 0,
  ) {
    super('ENGINE_PARSE_ERROR', message);
  }
}

/** Helpers shared by parsers. */
export function stripMarkup(text: string): string {
  return decodeEntities(text.replace(/<[^>]*>/g, ' '))
    .replace(/\s+/g, ' ')
    .trim();
}

/** Engines decode references and compare host names by the kernel's one decoder and host rule. */
export { decodeEntities };
export { bareHost } from './host-name.js';
